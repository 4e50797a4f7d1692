import { parseDurationMs } from "@burnbox/contracts";

/** The configuration tier of the cascade (contract notes): default 10m, maximum 24h. */
export const CONFIG_TTL = { default_inbox_ttl: "10m", max_inbox_ttl: "24h" } as const;

/** A TTL setting's value in seconds; null when it is unset or not a duration (a malformed value counts as unset). */
export const ttlSeconds = (v: unknown): number | null => {
  if (typeof v !== "string") return null;
  try {
    return Math.floor(parseDurationMs(v) / 1000);
  } catch {
    return null;
  }
};

/**
 * The effective maximum of some tiers: the smallest maximum any of them sets (no lower tier raises
 * it). The platform's tier (PUT /admin/platform) is the first of them where callers pass it; the
 * configuration's 24h applies only when no tier sets one.
 */
export function effectiveMaxSeconds(layers: ReadonlyArray<Record<string, unknown>>): number {
  const max = Math.min(...layers.map((l) => ttlSeconds(l.max_inbox_ttl) ?? Number.POSITIVE_INFINITY));
  return Number.isFinite(max) ? max : (ttlSeconds(CONFIG_TTL.max_inbox_ttl) as number);
}

/**
 * Why a tier's settings are refused (400), or null: its maximum above the effective maximum of
 * the tiers above it, or its default above the maximum that would then apply.
 */
export function cascadeProblem(tier: Record<string, unknown>, above: ReadonlyArray<Record<string, unknown>>): string | null {
  const ceiling = effectiveMaxSeconds(above);
  const ownMax = ttlSeconds(tier.max_inbox_ttl);
  if (ownMax !== null && ownMax > ceiling) return `max_inbox_ttl may not exceed ${ceiling}s, the maximum of the tiers above`;
  if (ownMax !== null && ownMax <= 0) return "max_inbox_ttl must be positive";
  const ownDefault = ttlSeconds(tier.default_inbox_ttl);
  if (ownDefault !== null && ownDefault <= 0) return "default_inbox_ttl must be positive";
  if (ownDefault !== null && ownDefault > Math.min(ceiling, ownMax ?? ceiling)) return "default_inbox_ttl may not exceed max_inbox_ttl";
  return null;
}
