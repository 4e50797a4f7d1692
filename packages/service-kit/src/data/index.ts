/** `@burnbox/service-kit/data`: the one pool, raw statements and group commits, the unit of work, the processed events, tenant scopes, pages, Redis. */
export * from "./db";
export * from "./pool-sql";
export * from "./group-commit";
export * from "./unit-of-work";
export * from "./tenant";
export * from "./paginate";
export * from "./processed-events";
export * from "./redis";
