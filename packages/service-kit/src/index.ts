/**
 * The whole kit at once. Import from the subpath instead: `@burnbox/service-kit/http` (routes,
 * handlers, the API server, health), `/messaging` (NATS, events, the outbox, consumers, caches),
 * `/data` (the pool, the unit of work, tenant scopes, pages), `/security` (access decisions, the
 * outbound guard, secrets, the internal context), `/runtime` (config, logger, clock, errors, start,
 * shutdown, periodic tasks) and `/telemetry` (first line of main.ts). The tenant-removal process
 * is `@burnbox/tenant-removal`.
 *
 * This root export stays while other branches still add imports of it: the orchestrator re-runs
 * `node deploy/local/codemods/kit-subpaths.mjs` after merging them (it rewrites every root import
 * to the subpaths, idempotently); then this file can go.
 */
export * from "./telemetry";
export * from "./runtime";
export * from "./http";
export * from "./messaging";
export * from "./data";
export * from "./security";
