import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import { requireTeam } from "../access/require-access";
import type { TenancyDeps } from "../deps";
import { activeInboxesConflict, liveInboxCountsOf } from "../inbox-counts/live-inbox-counts";

/** Takes a domain from a team; with active inboxes of the team on it (as the inbox service counts them) only when forced. */
export async function unassignDomain(
  deps: TenancyDeps,
  ctx: RequestCtx,
  input: { orgId: string; teamId: string; domainId: string; force: boolean },
): Promise<undefined> {
  const scope = await requireTeam(deps, ctx, input, "team.domains.manage");
  if (!(await deps.data.repos.domainAssignments.get(scope, input.domainId))) throw errors.notFound("domain assignment");
  const { active } = await liveInboxCountsOf(deps, scope, input.domainId, scope.teamId);
  if (active > 0 && !input.force) throw activeInboxesConflict("assignment", active);
  await deps.data.write(async (repos, events) => {
    const assignment = await repos.domainAssignments.get(scope, input.domainId);
    if (!assignment) throw errors.notFound("domain assignment");
    await repos.domainAssignments.delete(scope, input.domainId);
    events.audit({
      ctx,
      action: "domain.unassigned",
      org_id: scope.orgId,
      team_id: scope.teamId,
      target: { type: "domain_assignment", id: assignment.id },
      metadata: { domain_id: input.domainId, domain_name: assignment.domain_name, forced: input.force },
    });
  });
  return undefined;
}
