import type { domainAssignmentsRoutes } from "@burnbox/contracts";
import type { Handlers } from "@burnbox/service-kit/http";
import type { TenancyDeps } from "../domain/deps";
import { assignDomain } from "../domain/domain-assignments/assign-domain.use-case";
import { listMyDomains } from "../domain/domain-assignments/list-my-domains.use-case";
import { listTeamDomains } from "../domain/domain-assignments/list-team-domains.use-case";
import { unassignDomain } from "../domain/domain-assignments/unassign-domain.use-case";
import { updateDomainAssignment } from "../domain/domain-assignments/update-domain-assignment.use-case";

export const domainAssignmentsHandlers = (deps: TenancyDeps): Handlers<typeof domainAssignmentsRoutes> => ({
  assignDomain: ({ ctx, params, body }) => assignDomain(deps, ctx, { ...params, ...body }),
  listTeamDomains: ({ ctx, params, query }) => listTeamDomains(deps, ctx, { ...params, ...query }),
  updateDomainAssignment: ({ ctx, params, body }) => updateDomainAssignment(deps, ctx, { ...params, ...body }),
  unassignDomain: ({ ctx, params, query }) => unassignDomain(deps, ctx, { ...params, force: query.force }),
  listMyDomains: ({ ctx, query }) => listMyDomains(deps, ctx, query),
});
