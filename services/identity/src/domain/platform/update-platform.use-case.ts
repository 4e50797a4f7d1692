import { EventType, type PlatformSettings, type UpdatePlatformBody } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import { requireSystemAdmin } from "../admin-users/system-admin";
import type { IdentityDeps } from "../deps";
import { effectivePlatform, platformInEffect, platformProblem } from "./platform-settings";

/**
 * Merges the named platform settings and answers with all of them. The inbox service (demo) and
 * tenancy (the TTL cascade's top tier) apply them on every replica through the change event.
 */
export async function updatePlatform(deps: IdentityDeps, ctx: RequestCtx, input: UpdatePlatformBody): Promise<PlatformSettings> {
  requireSystemAdmin(ctx);
  const named = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as UpdatePlatformBody;
  if (Object.keys(named).length === 0) return platformInEffect(deps, await deps.data.repos.platform.all());
  const saved = await deps.data.write(async (repos, events) => {
    const stored = await repos.platform.all();
    const next = { ...stored, ...named };
    const problem = platformProblem(effectivePlatform(deps, next));
    if (problem) throw errors.validation(problem);
    await repos.platform.set(named);
    events.event(EventType.platformSettingsChanged, { org_id: null, team_id: null, data: {} });
    events.audit({
      ctx,
      action: "admin.platform_updated",
      org_id: null,
      target: { type: "platform", id: null },
      metadata: { ...named },
    });
    return next;
  });
  return platformInEffect(deps, saved);
}
