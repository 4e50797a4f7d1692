import { parseDurationMs } from "@burnbox/contracts";

const seconds = (v: unknown): number | null => {
  if (typeof v !== "string") return null;
  try {
    return Math.floor(parseDurationMs(v) / 1000);
  } catch {
    return null;
  }
};

/**
 * The inbox TTL limits in seconds from settings layers, widest first (org, domain, team,
 * assignment): a narrower layer's valid duration overrides; a missing or malformed one does not.
 */
export function resolveInboxTtl(layers: ReadonlyArray<Record<string, unknown>>): { defaultTtl: number | null; maxTtl: number | null } {
  let defaultTtl: number | null = null;
  let maxTtl: number | null = null;
  for (const layer of layers) {
    defaultTtl = seconds(layer.default_inbox_ttl) ?? defaultTtl;
    maxTtl = seconds(layer.max_inbox_ttl) ?? maxTtl;
  }
  return { defaultTtl, maxTtl };
}
