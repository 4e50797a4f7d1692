/**
 * `@burnbox/service-kit/core`: the bottom layer every other subpath builds on: config, the
 * request context and the logger that reads it, clock, errors, metrics, the drain, health checks.
 * It imports only `telemetry`; nothing in it knows HTTP, NATS or the database.
 */
export * from "./config";
export * from "./context";
export * from "./clock";
export * from "./logger";
export * from "./errors";
export * from "./metrics";
export * from "./drain";
export * from "./health-checks";
