/** `@burnbox/service-kit/http`: routes bound to handlers, the API server and its middleware, health and metrics endpoints. */
export * from "./http";
export * from "./api-server";
export * from "./routes";
export * from "./context";
export * from "./health";
export * from "./metrics-port";
