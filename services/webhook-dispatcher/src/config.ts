import { z } from "zod";
import { Duration } from "@burnbox/contracts";
import { baseConfigShape, databaseShape, encryptionShape, loadConfig } from "@burnbox/service-kit/runtime";

export const DispatcherConfig = z.object({
  ...baseConfigShape("webhook-dispatcher", 8104),
  ...databaseShape("burnbox_webhook_dispatcher"),
  /** Seals the webhooks' signing secrets at rest (the key every service shares); empty = creating a webhook is refused. */
  ...encryptionShape(),
  webhooks: z
    .object({
      /** Hosts or CIDR ranges exempt from the SSRF rules: local test receivers only. Empty by default. */
      unsafe_allowed_targets: z.array(z.string()).default([]),
    })
    .prefault({}),
  dns: z
    .object({
      /** Resolvers (`host:port`) for the dispatch-time address check; empty = the system's. Tests run their own. */
      servers: z.array(z.string()).default([]),
      /** How long one DNS query may take before the attempt fails. */
      timeout_ms: z.number().int().positive().default(3000),
    })
    .prefault({}),
  defaults: z
    .object({
      webhook_timeout: Duration.default("10s"),
      webhook_max_retries: z.number().int().min(1).max(20).default(3),
    })
    .prefault({}),
  delivery: z
    .object({
      /** Delay before attempt 2; each later attempt waits 5x longer (5 s, 25 s, ...). */
      retry_base: Duration.default("5s"),
      concurrency: z.number().int().positive().default(32),
      per_webhook_concurrency: z.number().int().positive().default(16),
      poll_interval: Duration.default("500ms"),
    })
    .prefault({}),
  workers: z.object({ webhook_retry_interval: Duration.default("1m") }).prefault({}),
});
export type DispatcherConfig = z.infer<typeof DispatcherConfig>;

export function loadDispatcherConfig(env: Record<string, string | undefined>, overrides: Record<string, unknown> = {}): DispatcherConfig {
  return loadConfig(DispatcherConfig, env, overrides);
}
