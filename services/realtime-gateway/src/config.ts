import { z } from "zod";
import { baseConfigShape, loadConfig } from "@burnbox/service-kit";

export const RealtimeConfig = z.object({
  ...baseConfigShape("realtime-gateway", 8105),
  ws: z
    .object({
      ping_interval_ms: z.number().int().positive().default(30_000),
      /** A peer whose unsent frames exceed this is cut off rather than buffered without bound. */
      max_buffered_bytes: z
        .number()
        .int()
        .positive()
        .default(1024 * 1024),
    })
    .prefault({}),
});
export type RealtimeConfig = z.infer<typeof RealtimeConfig>;

export function loadRealtimeConfig(env: Record<string, string | undefined>, overrides: Record<string, unknown> = {}): RealtimeConfig {
  return loadConfig(RealtimeConfig, env, overrides);
}
