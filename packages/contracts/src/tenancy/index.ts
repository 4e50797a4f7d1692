import { domainAssignmentsRoutes } from "./domain-assignments.routes";
import { domainsRoutes } from "./domains.routes";
import { orgsRoutes } from "./orgs.routes";
import { teamsRoutes } from "./teams.routes";

export * from "./orgs.schemas";
export * from "./teams.schemas";
export * from "./domains.schemas";
export * from "./domain-assignments.schemas";

export const tenancyRoutes = [...orgsRoutes, ...teamsRoutes, ...domainsRoutes, ...domainAssignmentsRoutes] as const;

/** Everything the tenancy service serves. */
export const tenancyServiceRoutes = tenancyRoutes;
export * from "./domain-assignments.routes";
export * from "./domains.routes";
export * from "./orgs.routes";
export * from "./teams.routes";
