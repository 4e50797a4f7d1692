import type { DomainAssignment, UpdateAssignmentBody } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import { requireWritableTeam } from "../access/require-access";
import type { TenancyDeps } from "../deps";
import { withOrgDefaults } from "../orgs/org-settings";
import { cascadeProblem } from "../settings/ttl-cascade";

/** Changes a team's access level or settings on an assigned domain (settings merged, under the TTL cascade). */
export async function updateDomainAssignment(
  deps: TenancyDeps,
  ctx: RequestCtx,
  input: { orgId: string; teamId: string; domainId: string } & UpdateAssignmentBody,
): Promise<DomainAssignment> {
  const scope = await requireWritableTeam(deps, ctx, input, "team.domains.manage");
  return deps.data.write(async (repos, events) => {
    const [assignment, domain, team, org] = await Promise.all([
      repos.domainAssignments.get(scope, input.domainId),
      repos.domains.get(scope, input.domainId),
      repos.teams.get(scope),
      repos.orgs.get(scope),
    ]);
    if (!assignment || !domain || !team || !org) throw errors.notFound("domain assignment");
    const settings = input.settings ? { ...assignment.settings, ...input.settings } : undefined;
    if (settings) {
      const problem = cascadeProblem(settings, [withOrgDefaults(org.settings), domain.settings, team.settings]);
      if (problem) throw errors.validation(problem);
    }
    const updated = await repos.domainAssignments.update(scope, input.domainId, {
      ...(input.access_level ? { accessLevel: input.access_level } : {}),
      ...(settings ? { settings } : {}),
    });
    events.audit({
      ctx,
      action: "domain_assignment.updated",
      org_id: scope.orgId,
      team_id: scope.teamId,
      target: { type: "domain_assignment", id: assignment.id },
      metadata: { domain_name: domain.domain_name, ...(input.access_level ? { access_level: input.access_level } : {}) },
    });
    return updated;
  });
}
