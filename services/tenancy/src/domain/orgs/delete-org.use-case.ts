import type { DeleteOrgBody } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import { requireOrg } from "../access/require-access";
import type { TenancyDeps } from "../deps";
import { removeTenantKeys } from "../teams/remove-tenant-keys";
import { checkPassword } from "../users";

/**
 * Deletes an org, confirmed by the caller's password (an SSO-only account confirms with the org's
 * slug). Every service deletes that org's data from the `org.deleted` event; its API keys are
 * refused before the answer (`removeTenantKeys`).
 */
export async function deleteOrg(
  deps: TenancyDeps,
  ctx: RequestCtx,
  input: { orgId: string } & DeleteOrgBody,
): Promise<{ message: string }> {
  const scope = await requireOrg(deps, ctx, input, "org.delete");
  const org = await deps.data.repos.orgs.get(scope);
  if (!org) throw errors.notFound("organization");
  if (input.password === undefined && input.confirm === undefined)
    throw errors.validation("password (or confirm, for SSO-only accounts) is required");
  if (input.password !== undefined) {
    const check = await checkPassword(deps, ctx.actor.user_id, input.password);
    if (!check.valid) throw errors.forbidden("confirmation failed");
  } else {
    const check = await checkPassword(deps, ctx.actor.user_id, "");
    // the slug confirms only for accounts without a password
    if (check.has_password || input.confirm !== org.slug) throw errors.forbidden("confirmation failed");
  }
  const out = await deps.data.write(async (repos, events) => {
    const teamIds = await repos.teams.idsOf(scope);
    await repos.orgs.delete(scope);
    events.event("org.deleted", { org_id: scope.orgId, team_id: null, data: { org_id: scope.orgId, team_ids: teamIds } });
    events.audit({
      ctx,
      action: "org.deleted",
      org_id: scope.orgId,
      target: { type: "org", id: scope.orgId },
      metadata: { name: org.name, slug: org.slug, teams: teamIds.length },
    });
    return { message: "organization deleted" };
  });
  await removeTenantKeys(deps, { orgId: scope.orgId, teamId: null });
  return out;
}
