export { z } from "./zod";
export * from "./errors";
export * from "./pagination";
export * from "./permissions";
export * from "./events";
export * from "./messages";
export * from "./routes";
export { buildOpenApiDocument } from "./openapi";
export * from "./redis-keys";
