import type { Org, UpdateOrgSettingsBody } from "@burnbox/contracts";
import { errors, type RequestCtx } from "@burnbox/service-kit";
import { requireOrg } from "../access/require-access";
import type { TenancyDeps } from "../deps";
import { cascadeProblem } from "../settings/ttl-cascade";

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
    const merged = { ...org.settings, ...input.changes };
    // the org is the top tier: above it only the configuration's maximum
    const problem = cascadeProblem(merged, []);
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
