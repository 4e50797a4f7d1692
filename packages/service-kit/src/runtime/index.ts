/**
 * `@burnbox/service-kit/runtime`: the top layer: process start (`startInfra`/`runService`, which
 * compose `data`, `messaging` and `http`), shutdown, periodic tasks; and, for the services, the
 * `core` primitives they have always imported from here (config, logger, clock, errors, metrics).
 */
export * from "../core/config";
export * from "../core/clock";
export * from "../core/logger";
export * from "../core/errors";
export * from "../core/metrics";
export * from "../core/drain";
export * from "./shutdown";
export * from "./service";
export * from "./periodic-task";
export * from "./stop-list";
