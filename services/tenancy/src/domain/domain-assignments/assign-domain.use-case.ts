import { randomUUID } from "node:crypto";
import type { AssignDomainBody, DomainAssignment } from "@burnbox/contracts";
import { errors, type RequestCtx } from "@burnbox/service-kit";
import { requireTeam } from "../access/require-access";
import type { TenancyDeps } from "../deps";

/** Assigns a verified domain of the org to one of its teams. */
export async function assignDomain(
  deps: TenancyDeps,
  ctx: RequestCtx,
  input: { orgId: string; teamId: string } & AssignDomainBody,
): Promise<DomainAssignment> {
  const scope = await requireTeam(deps, ctx, input, "team.domains.manage");
  const domain = await deps.data.repos.domains.get(scope, input.domain_id);
  if (!domain) throw errors.notFound("domain");
  if (domain.status !== "verified") throw errors.validation("domain must be verified before it is assigned");
  return deps.data.write(async (repos, events) => {
    const assignment = await repos.domainAssignments.create(scope, {
      id: randomUUID(),
      domainId: domain.id,
      accessLevel: input.access_level,
    });
    events.audit({
      ctx,
      action: "domain.assigned",
      org_id: scope.orgId,
      team_id: scope.teamId,
      target: { type: "domain_assignment", id: assignment.id },
      metadata: { domain_id: domain.id, access_level: input.access_level },
    });
    return assignment;
  });
}
