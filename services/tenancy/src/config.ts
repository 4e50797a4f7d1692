import { z } from "zod";
import { baseConfigShape, databaseShape, loadConfig } from "@burnbox/service-kit";

export const TenancyConfig = z.object({
  ...baseConfigShape("tenancy", 8102),
  ...databaseShape("burnbox_tenancy"),
  domains: z
    .object({
      /** Domains (and their subdomains) that count as verified without DNS: local runs and tests. */
      trusted: z.array(z.string().toLowerCase()).default([]),
    })
    .prefault({}),
});
export type TenancyConfig = z.infer<typeof TenancyConfig>;

export function loadTenancyConfig(env: Record<string, string | undefined>, overrides: Record<string, unknown> = {}): TenancyConfig {
  return loadConfig(TenancyConfig, env, overrides);
}
