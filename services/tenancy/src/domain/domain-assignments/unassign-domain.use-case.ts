import { errors, type RequestCtx } from "@burnbox/service-kit";
import { requireTeam } from "../access/require-access";
import type { TenancyDeps } from "../deps";
import { activeInboxesConflict } from "../domains/delete-domain.use-case";

/** Takes a domain from a team; with active inboxes on it only when forced. */
export async function unassignDomain(
  deps: TenancyDeps,
  ctx: RequestCtx,
  input: { orgId: string; teamId: string; domainId: string; force: boolean },
): Promise<undefined> {
  const scope = await requireTeam(deps, ctx, input, "team.domains.manage");
  await deps.data.write(async (repos, events) => {
    const assignment = await repos.domainAssignments.get(scope, input.domainId);
    if (!assignment) throw errors.notFound("domain assignment");
    if (assignment.activeInboxes > 0 && !input.force) throw activeInboxesConflict("assignment", assignment.activeInboxes);
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
