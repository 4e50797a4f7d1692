import { z } from "zod";
import { Duration } from "@burnbox/contracts";
import { baseConfigShape, databaseShape, loadConfig } from "@burnbox/service-kit";

export const InboxConfig = z.object({
  ...baseConfigShape("inbox", 8103),
  ...databaseShape("burnbox_inbox"),
  smtp: z
    .object({
      port: z.number().int().min(0).max(65535).default(2525),
      host: z.string().default("0.0.0.0"),
      /** The name the intake greets with (and the MX target domains must point at). */
      hostname: z.string().default("mx.burnbox.local"),
      max_message_bytes: z
        .number()
        .int()
        .positive()
        .default(25 * 1024 * 1024),
      max_recipients: z.number().int().positive().default(100),
    })
    .prefault({}),
  storage: z.object({ local_path: z.string().default(".data/storage") }).prefault({}),
  inboxes: z
    .object({
      /** Used only when tenancy's settings give no TTL (they normally do: 10m default, 24h max). */
      default_ttl: Duration.default("10m"),
      max_ttl: Duration.default("24h"),
    })
    .prefault({}),
  workers: z.object({ cleanup_interval: Duration.default("1m") }).prefault({}),
});
export type InboxConfig = z.infer<typeof InboxConfig>;

export function loadInboxConfig(env: Record<string, string | undefined>, overrides: Record<string, unknown> = {}): InboxConfig {
  return loadConfig(InboxConfig, env, overrides);
}

/** What `db:migrate` needs: the service's own settings, with no secret required (it only migrates). */
export const InboxMigrateConfig = InboxConfig.partial({ internal: true });

/** The migration settings from this process's environment (read here: config loading is the one place env is read). */
export function loadInboxMigrateConfig(): z.infer<typeof InboxMigrateConfig> {
  return loadConfig(InboxMigrateConfig, process.env);
}
