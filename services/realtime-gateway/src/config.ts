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
      /** A resumed inbox stream (`last_event_id`) replays events of at most this age (10 minutes)… */
      replay_max_age_ms: z.number().int().positive().default(600_000),
      /** …and at most this many of the inbox's; beyond either, it gets `resync_required`. */
      replay_max_events: z.number().int().positive().default(1000),
    })
    .prefault({}),
});
export type RealtimeConfig = z.infer<typeof RealtimeConfig>;

export function loadRealtimeConfig(env: Record<string, string | undefined>, overrides: Record<string, unknown> = {}): RealtimeConfig {
  return loadConfig(RealtimeConfig, env, overrides);
}
