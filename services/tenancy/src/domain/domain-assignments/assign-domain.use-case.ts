import { randomUUID } from "node:crypto";
import type { AssignDomainBody, DomainAssignment } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import { requireWritableTeam } from "../access/require-access";
import type { TenancyDeps } from "../deps";
import { withOrgDefaults } from "../orgs/org-settings";
import { cascadeProblem } from "../settings/ttl-cascade";

/** Assigns a verified domain of the org to one of its teams (not an archived one). */
export async function assignDomain(
  deps: TenancyDeps,
  ctx: RequestCtx,
  input: { orgId: string; teamId: string } & AssignDomainBody,
): Promise<DomainAssignment> {
  const scope = await requireWritableTeam(deps, ctx, input, "team.domains.manage");
  const { domains, teams, orgs } = deps.data.repos;
  const [domain, team, org] = await Promise.all([domains.get(scope, input.domain_id), teams.get(scope), orgs.get(scope)]);
  if (!domain || !team || !org) throw errors.notFound("domain");
  if (domain.status !== "verified") throw errors.conflict("domain must be verified before it is assigned");
  const settings = input.settings ?? {};
  const problem = cascadeProblem(settings, [withOrgDefaults(org.settings), domain.settings, team.settings]);
  if (problem) throw errors.validation(problem);
  return deps.data.write(async (repos, events) => {
    const assignment = await repos.domainAssignments.create(scope, {
      id: randomUUID(),
      domainId: domain.id,
      accessLevel: input.access_level,
      settings,
    });
    events.audit({
      ctx,
      action: "domain.assigned",
      org_id: scope.orgId,
      team_id: scope.teamId,
      target: { type: "domain_assignment", id: assignment.id },
      metadata: { domain_id: domain.id, domain_name: domain.domain_name, access_level: input.access_level },
    });
    return assignment;
  });
}
