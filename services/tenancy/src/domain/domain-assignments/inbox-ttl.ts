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
 * assignment): the default is the narrowest layer's valid one; the maximum is the smallest any
 * layer sets (contract notes: no lower tier can raise it). A malformed value counts as unset.
 */
export function resolveInboxTtl(layers: ReadonlyArray<Record<string, unknown>>): { defaultTtl: number | null; maxTtl: number | null } {
  let defaultTtl: number | null = null;
  let maxTtl: number | null = null;
  for (const layer of layers) {
    defaultTtl = seconds(layer.default_inbox_ttl) ?? defaultTtl;
    const max = seconds(layer.max_inbox_ttl);
    if (max !== null) maxTtl = maxTtl === null ? max : Math.min(maxTtl, max);
  }
  return { defaultTtl, maxTtl };
}
