import { z } from "../zod";
import { PlatformConfigRequest } from "../tenancy/platform-config.rpc";

/** Identity's platform settings (PUT /admin/platform) as other services apply them; null = not set (their configuration applies). */
export const PlatformSettingsReply = z.object({
  max_sessions_per_user: z.number().int(),
  allow_registration: z.boolean(),
  demo_enabled: z.boolean().nullable(),
  default_inbox_ttl: z.string().nullable(),
  max_inbox_ttl: z.string().nullable(),
});
export type PlatformSettingsReply = z.infer<typeof PlatformSettingsReply>;

/** Identity: its platform settings as other services apply them. */
export const platformRpc = {
  platformSettings: { name: "identity.platform_settings", request: PlatformConfigRequest, reply: PlatformSettingsReply },
} as const;
