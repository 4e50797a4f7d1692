import type { Org, UpdateOrgSettingsBody } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import { requireOrg } from "../access/require-access";
import type { TenancyDeps } from "../deps";
import { cascadeProblem } from "../settings/ttl-cascade";
import { TTL_KEYS } from "./org-settings";

/** PATCH and PUT both merge: the named fields over the stored ones, checked as a whole (TTL cascade). */
export async function updateOrgSettings(
  deps: TenancyDeps,
  ctx: RequestCtx,
  input: { orgId: string; changes: UpdateOrgSettingsBody },
): Promise<Org["settings"]> {
  const scope = await requireOrg(deps, ctx, input, "org.settings.manage");
  return deps.data.write(async (repos, events) => {
    await repos.orgs.lockForQuota(scope);
    const org = await repos.orgs.get(scope);
    if (!org) throw errors.notFound("organization");
    const platformTtl = deps.platformTtl.current();
    // TTLs the org has not set read as the platform's; they are not stored unless named, so they keep following it
    const following = (key: string, value: unknown) =>
      TTL_KEYS.some((k) => k === key && input.changes[k] === undefined && value === platformTtl[k]);
    const merged = Object.fromEntries(
      Object.entries({ ...org.settings, ...input.changes }).filter(([key, value]) => !following(key, value)),
    ) as typeof org.settings;
    // above the org only the platform's tier (PUT /admin/platform)
    const problem = cascadeProblem(merged, [platformTtl]);
    if (problem) throw errors.validation(problem);
    const saved = await repos.orgs.saveSettings(scope, merged);
    events.audit({
      ctx,
      action: "org.settings_updated",
      org_id: scope.orgId,
      target: { type: "org", id: scope.orgId },
      metadata: { changes: input.changes },
    });
    return saved.settings;
  });
}
