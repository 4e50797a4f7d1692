import { z } from "../zod";
import type { EventType } from "./events";
import type { RpcName } from "./rpc";

/** Subjects are namespaced so that several installations (or test runs) share one NATS safely. */
export const subjects = (namespace: string) =>
  ({
    stream: `${namespace.toUpperCase().replace(/[^A-Z0-9_]/g, "_")}_EVENTS`,
    dlqStream: `${namespace.toUpperCase().replace(/[^A-Z0-9_]/g, "_")}_DLQ`,
    eventsWildcard: `${namespace}.events.>`,
    event: (type: EventType) => `${namespace}.events.${type}`,
    dlq: (consumer: string) => `${namespace}.dlq.${consumer}`,
    dlqWildcard: `${namespace}.dlq.>`,
    rpc: (name: RpcName) => `${namespace}.rpc.${name}`,
    /**
     * Core NATS broadcast (every replica, no stream): what a commit changed, one subject per event
     * type or change subject (`ChangeSubject`); the per-process caches that registered it drop what it names.
     */
    changes: (type: string) => `${namespace}.changes.${type}`,
    /**
     * Core NATS, no stream (not under `events.>`): one key's copy of an event type, published by
     * the outbox relay once the stream holds the event (`startOutboxRelay`'s `live`), and
     * subscribed only where someone watches that key (an inbox's `email.received`: its sockets on
     * a realtime replica, its waits in an inbox process), so that nobody else receives it.
     */
    live: (type: EventType, key: string) => `${namespace}.live.${type.replace(/\./g, "_")}.${key}`,
    /** Core NATS request/reply: any one process of `service` answers with its checks (admin health). */
    health: (service: string) => `${namespace}.health.${service}`,
  }) as const;

/**
 * Changes a service commits without a domain event that another service's cache depends on
 * (published by the owner's unit of work, see service-kit's `publishChanges`).
 */
export const ChangeSubject = {
  /** identity changed (or removed) the key with hash `data.hash`: the gateways drop their copy. */
  apiKeyState: "api_keys.state_changed",
  /**
   * identity removed every key of a deleted org or team (`data` an `ApiKeysRemovedChange`): the
   * gateways drop their copies of that tenant's keys, whichever removal (the deletion's RPC or its
   * event) deleted them.
   */
  apiKeysRemoved: "api_keys.tenant_removed",
} as const;

/** The data of an `api_keys.tenant_removed` change. */
export interface ApiKeysRemovedChange {
  org_id: string;
  team_id: string | null;
}

/** The data of an `api_keys.state_changed` change. */
export interface ApiKeyStateChange {
  hash: string;
}

/** Every service process answers a health ping on `subjects(ns).health(service)` with its own checks. */
export const HealthPingReply = z.object({
  service: z.string(),
  checks: z.record(z.string(), z.object({ status: z.enum(["ok", "down"]), latency_ms: z.number().int().min(0) })),
});
export type HealthPingReply = z.infer<typeof HealthPingReply>;
