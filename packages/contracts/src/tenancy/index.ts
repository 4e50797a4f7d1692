import { domainAssignmentsRoutes } from "./domain-assignments.routes";
import { domainsRoutes } from "./domains.routes";
import { membersRoutes } from "./members.routes";
import { orgsRoutes } from "./orgs.routes";
import { platformConfigRoutes } from "./platform-config.routes";
import { adminRolesRoutes, rolesRoutes } from "./roles.routes";
import { teamMembersRoutes } from "./team-members.routes";
import { teamsRoutes } from "./teams.routes";

export * from "./orgs.schemas";
export * from "./teams.schemas";
export * from "./domains.schemas";
export * from "./domain-assignments.schemas";
export * from "./roles.schemas";
export * from "./platform-config.schemas";

export const tenancyRoutes = [
  ...orgsRoutes,
  ...membersRoutes,
  ...teamsRoutes,
  ...teamMembersRoutes,
  ...domainsRoutes,
  ...domainAssignmentsRoutes,
  ...rolesRoutes,
  ...adminRolesRoutes,
  ...platformConfigRoutes,
] as const;

/** Everything the tenancy service serves. */
export const tenancyServiceRoutes = tenancyRoutes;
export * from "./domain-assignments.routes";
export * from "./domains.routes";
export * from "./members.routes";
export * from "./orgs.routes";
export * from "./platform-config.routes";
export * from "./roles.routes";
export * from "./team-members.routes";
export * from "./teams.routes";
