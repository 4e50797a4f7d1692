import { z } from "../zod";
import { Duration } from "../shared/common.schemas";

/**
 * Platform-wide settings, as in effect. `demo_enabled`: the saved value, else the inbox service's
 * `demo.enabled`; the TTLs are the top (configuration) tier of the inbox TTL cascade (10m and 24h
 * unless set).
 */
export const PlatformSettings = z
  .object({
    max_sessions_per_user: z.number().int().min(1).max(1000),
    allow_registration: z.boolean(),
    demo_enabled: z.boolean().openapi({ description: "The demo in effect: the saved value, else the configuration's `demo.enabled`" }),
    default_inbox_ttl: Duration,
    max_inbox_ttl: Duration,
  })
  .openapi("PlatformSettings");
export type PlatformSettings = z.infer<typeof PlatformSettings>;

/** Merged: only the fields named change; `demo_enabled: null` hands the demo back to the configuration. */
export const UpdatePlatformBody = PlatformSettings.extend({
  demo_enabled: z.boolean().nullable().openapi({ description: "null: the configuration's `demo.enabled` decides again" }),
})
  .partial()
  .openapi("UpdatePlatformRequest");
export type UpdatePlatformBody = z.infer<typeof UpdatePlatformBody>;

/** The inbox TTLs of the cascade's top tier while the platform sets none (contract notes: 10m, 24h). */
export const PLATFORM_TTL_DEFAULTS = { default_inbox_ttl: "10m", max_inbox_ttl: "24h" } as const;
