/** `@burnbox/service-kit/messaging`: NATS, events, the outbox relay, consumers, request/reply, change broadcasts and caches, live settings. */
export * from "./nats";
export * from "./consumer";
export * from "./start-consumers";
export * from "./outbox";
export * from "./broadcast-cache";
export * from "./live-setting";
export * from "./health-ping";
