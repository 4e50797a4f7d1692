/** `@burnbox/service-kit/runtime`: config, logger, clock, errors, metrics, process start and shutdown, periodic tasks. */
export * from "./config";
export * from "./clock";
export * from "./logger";
export * from "./errors";
export * from "./metrics";
export * from "./shutdown";
export * from "./drain";
export * from "./service";
export * from "./periodic-task";
