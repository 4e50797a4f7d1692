import { DEFAULT_ORG_SETTINGS } from "../orgs/org-settings";
import { ttlSeconds } from "../settings/ttl-cascade";

/**
 * The inbox TTL limits in seconds from settings layers, widest first (org, domain, team,
 * assignment): the default is the narrowest layer's valid one; the maximum is the smallest any
 * layer sets (contract notes: no lower tier can raise it). A malformed value counts as unset.
 */
export function resolveInboxTtl(layers: ReadonlyArray<Record<string, unknown>>): { defaultTtl: number | null; maxTtl: number | null } {
  let defaultTtl: number | null = null;
  let maxTtl: number | null = null;
  for (const layer of layers) {
    defaultTtl = ttlSeconds(layer.default_inbox_ttl) ?? defaultTtl;
    const max = ttlSeconds(layer.max_inbox_ttl);
    if (max !== null) maxTtl = maxTtl === null ? max : Math.min(maxTtl, max);
  }
  return { defaultTtl, maxTtl };
}

/**
 * `max_inboxes_per_domain` from settings layers (org first, whose stored value or default is always
 * there): the smallest whole number >= 1 any layer sets, so no lower tier can raise the org's limit.
 */
export function resolveInboxLimit(layers: ReadonlyArray<Record<string, unknown>>): number {
  let limit = Number.POSITIVE_INFINITY;
  for (const layer of layers) {
    const v = layer.max_inboxes_per_domain;
    if (typeof v === "number" && Number.isInteger(v) && v >= 1) limit = Math.min(limit, v);
  }
  return Number.isFinite(limit) ? limit : DEFAULT_ORG_SETTINGS.max_inboxes_per_domain;
}

/** Seconds as the shortest whole duration string (`2h`, `15m`, `90s`). */
export const durationOf = (seconds: number): string =>
  seconds % 3600 === 0 ? `${seconds / 3600}h` : seconds % 60 === 0 ? `${seconds / 60}m` : `${seconds}s`;
