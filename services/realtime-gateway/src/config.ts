import { z } from "zod";
import { baseConfigShape, databaseShape, loadConfig } from "@burnbox/service-kit/runtime";

export const RealtimeConfig = z.object({
  ...baseConfigShape("realtime-gateway", 8105),
  ...databaseShape("burnbox_realtime_gateway"),
  ws: z
    .object({
      ping_interval_ms: z.number().int().positive().default(30_000),
      /** A peer whose unsent frames exceed this is cut off rather than buffered without bound. */
      max_buffered_bytes: z
        .number()
        .int()
        .positive()
        .default(1024 * 1024),
      /** How long a notification socket's lease (its place in the user's limit) lasts unless renewed. */
      notification_lease_ms: z.number().int().positive().default(60_000),
      /** `/ws/admin-stats`: a frame every this long, from one fetch per interval shared by the replica's sockets. */
      admin_stats_interval_ms: z.number().int().positive().default(10_000),
    })
    .prefault({}),
});
export type RealtimeConfig = z.infer<typeof RealtimeConfig>;

export function loadRealtimeConfig(env: Record<string, string | undefined>, overrides: Record<string, unknown> = {}): RealtimeConfig {
  return loadConfig(RealtimeConfig, env, overrides);
}
