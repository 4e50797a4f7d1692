import type { tenancyServiceRoutes } from "@burnbox/contracts";

type TenancyRoute = (typeof tenancyServiceRoutes)[number];

/**
 * The routes of one resource, picked from the service's list by operation id. The contracts
 * package keeps its per-resource arrays (`orgsRoutes`, ...) internal; once its index exports
 * them, these become `typeof orgsRoutes` and so on. A wrong id here leaves a route without a
 * handler, which `bindRoutes` in app.ts refuses to compile.
 */
type RoutesOf<Id extends TenancyRoute["operationId"]> = ReadonlyArray<Extract<TenancyRoute, { operationId: Id }>>;

export type OrgsRoutes = RoutesOf<"createOrg" | "getOrg">;
export type TeamsRoutes = RoutesOf<"createTeam" | "listTeams">;
export type DomainsRoutes = RoutesOf<"createDomain">;
export type DomainAssignmentsRoutes = RoutesOf<"assignDomain">;
