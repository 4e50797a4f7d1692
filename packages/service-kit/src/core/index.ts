/**
 * `@burnbox/service-kit/core`: the bottom layer every other subpath builds on: config, the
 * request context and the logger that reads it, clock, errors, metrics, the drain, health checks.
 * Of the kit it imports only `telemetry` (its drain and metrics handler use the types of node's
 * http, express and pg, not the kit's layers that serve them).
 */
export * from "./config";
export * from "./context";
export * from "./clock";
export * from "./logger";
export * from "./errors";
export * from "./metrics";
export * from "./drain";
export * from "./health-checks";
