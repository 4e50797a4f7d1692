/**
 * `@burnbox/service-kit/http`: routes bound to handlers, the API server and its middleware, health
 * and metrics endpoints; with `core`'s request context and health checks, which it has always exported.
 */
export * from "./http";
export * from "./api-server";
export * from "./routes";
export * from "../core/context";
export * from "../core/health-checks";
export * from "./health";
export * from "./metrics-port";
