import { PLATFORM_TTL_DEFAULTS, RpcName, parseDurationMs, type PlatformSettings, type PlatformSettingsReply } from "@burnbox/contracts";
import { rpcRequest, RpcError } from "@burnbox/service-kit/messaging";
import { errors } from "@burnbox/service-kit/runtime";
import type { StoredPlatformSettings } from "../../data/platform.repository";
import type { IdentityRepos } from "../../data/repositories";
import type { IdentityDeps } from "../deps";

/** The longest inbox TTL a platform setting may name (ten years: beyond it the number means nothing). */
const TTL_CEILING_MS = 3650 * 86_400_000;

/** The settings with identity's defaults filled in; `demo_enabled` stays null while none is saved (the inbox service's configuration decides). */
export type PlatformView = Omit<PlatformSettings, "demo_enabled"> & { demo_enabled: boolean | null };

/** What is stored, else the defaults identity knows (configuration, 10m, 24h). */
export function effectivePlatform(deps: Pick<IdentityDeps, "config">, stored: StoredPlatformSettings): PlatformView {
  return {
    max_sessions_per_user: stored.max_sessions_per_user ?? deps.config.defaults.max_sessions_per_user,
    allow_registration: stored.allow_registration ?? true,
    demo_enabled: stored.demo_enabled,
    default_inbox_ttl: stored.default_inbox_ttl ?? PLATFORM_TTL_DEFAULTS.default_inbox_ttl,
    max_inbox_ttl: stored.max_inbox_ttl ?? PLATFORM_TTL_DEFAULTS.max_inbox_ttl,
  };
}

/** What other services apply (`identity.platform_settings`): null where nothing is stored, so their configuration decides. */
export function platformReply(deps: Pick<IdentityDeps, "config">, stored: StoredPlatformSettings): PlatformSettingsReply {
  return { ...effectivePlatform(deps, stored), default_inbox_ttl: stored.default_inbox_ttl, max_inbox_ttl: stored.max_inbox_ttl };
}

/**
 * The settings as an admin reads them, all in effect: a saved `demo_enabled`, else the inbox
 * service's configured `demo.enabled` (asked of it: 503 when it does not answer).
 */
export async function platformInEffect(
  deps: Pick<IdentityDeps, "config" | "nc">,
  stored: StoredPlatformSettings,
): Promise<PlatformSettings> {
  const view = effectivePlatform(deps, stored);
  if (view.demo_enabled !== null) return { ...view, demo_enabled: view.demo_enabled };
  try {
    const { enabled } = await rpcRequest(deps.nc, deps.config.nats.namespace, RpcName.demoConfig, {});
    return { ...view, demo_enabled: enabled };
  } catch (err) {
    if (err instanceof RpcError) throw errors.unavailable("inbox service unavailable");
    throw err;
  }
}

/** Why the merged settings cannot stand (a 400), or null: TTLs positive, bounded, default within the maximum. */
export function platformProblem(merged: PlatformView): string | null {
  const def = parseDurationMs(merged.default_inbox_ttl);
  const max = parseDurationMs(merged.max_inbox_ttl);
  if (def <= 0) return "default_inbox_ttl must be positive";
  if (max <= 0) return "max_inbox_ttl must be positive";
  if (max > TTL_CEILING_MS) return "max_inbox_ttl must be at most 3650d";
  if (def > max) return "default_inbox_ttl must not exceed max_inbox_ttl";
  return null;
}

/** Whether anyone may register (`allow_registration`, default true). */
export async function registrationAllowed(repos: IdentityRepos): Promise<boolean> {
  return (await repos.platform.all()).allow_registration ?? true;
}
