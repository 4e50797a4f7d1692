import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import { requireOrgTeam } from "../access/require-access";
import type { TenancyDeps } from "../deps";
import { removeTenantKeys } from "./remove-tenant-keys";

/**
 * Deletes a team; the other services delete its inboxes, webhooks and keys from `team.deleted`.
 * Its API keys are refused before the answer (`removeTenantKeys`): a client sees its own write.
 */
export async function deleteTeam(deps: TenancyDeps, ctx: RequestCtx, input: { orgId: string; teamId: string }): Promise<undefined> {
  const scope = await requireOrgTeam(deps, ctx, input, "org.teams.delete");
  await deps.data.write(async (repos, events) => {
    const team = await repos.teams.get(scope);
    if (!team) throw errors.notFound("team");
    await repos.teams.delete(scope);
    events.event("team.deleted", { org_id: scope.orgId, team_id: scope.teamId, data: { team_id: scope.teamId } });
    events.audit({
      ctx,
      action: "team.deleted",
      org_id: scope.orgId,
      team_id: scope.teamId,
      target: { type: "team", id: scope.teamId },
      metadata: { name: team.name },
    });
  });
  await removeTenantKeys(deps, { orgId: scope.orgId, teamId: scope.teamId });
  return undefined;
}
