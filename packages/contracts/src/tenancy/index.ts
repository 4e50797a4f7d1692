import { adminStatsRoutes } from "./admin-stats.routes";
import { adminRoutes } from "./admin.routes";
import { setupRoutes } from "./setup.routes";
import { analyticsRoutes } from "./analytics.routes";
import { adminAuditRoutes, auditRoutes } from "./audit.routes";
import { domainAssignmentsRoutes } from "./domain-assignments.routes";
import { domainsRoutes } from "./domains.routes";
import { domainImpactRoutes, teamImpactRoutes } from "./impact.routes";
import { invitesRoutes } from "./invites.routes";
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
export * from "./setup.schemas";
export * from "./admin.schemas";
export * from "./invites.schemas";
export * from "./impact.schemas";
export * from "./audit.schemas";
export * from "./analytics.schemas";
export * from "./admin-stats.schemas";
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
  ...invitesRoutes,
  ...domainImpactRoutes,
  ...teamImpactRoutes,
  ...auditRoutes,
  ...adminAuditRoutes,
  ...analyticsRoutes,
  ...adminStatsRoutes,
  ...platformConfigRoutes,
  ...setupRoutes,
  ...adminRoutes,
] as const;

/** Everything the tenancy service serves. */
export const tenancyServiceRoutes = tenancyRoutes;
export * from "./audit.routes";
export * from "./domain-assignments.routes";
export * from "./domains.routes";
export * from "./impact.routes";
export * from "./invites.routes";
export * from "./members.routes";
export * from "./orgs.routes";
export * from "./platform-config.routes";
export * from "./roles.routes";
export * from "./team-members.routes";
export * from "./teams.routes";
export * from "./analytics.routes";
export * from "./admin-stats.routes";
export * from "./setup.routes";
export * from "./admin.routes";
export * from "./access.rpc";
export * from "./admin-stats.rpc";
export * from "./audit.events";
export * from "./domain-assignments.rpc";
export * from "./domains.events";
export * from "./invites.events";
export * from "./invites.rpc";
export * from "./members.events";
export * from "./members.rpc";
export * from "./orgs.events";
export * from "./orgs.rpc";
export * from "./platform-config.events";
export * from "./platform-config.rpc";
export * from "./team-members.events";
export * from "./teams.events";
export * from "./teams.rpc";
