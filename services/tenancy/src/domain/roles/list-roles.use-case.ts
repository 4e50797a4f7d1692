import type { RolesCatalog } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import type { TenancyDeps } from "../deps";
import { SYSTEM_ROLES, permissionsOf } from "./role-catalog";

/** The system and custom roles of both scopes, and every permission key (custom team keys included). */
export async function listRoles(deps: TenancyDeps, _ctx: RequestCtx): Promise<RolesCatalog> {
  // any authenticated caller: roles are installation-wide and hold no tenant data
  const custom = await deps.data.repos.roles.list();
  const all = [...SYSTEM_ROLES, ...custom];
  const permissions = permissionsOf(custom);
  return {
    org_roles: all.filter((r) => r.scope === "org"),
    team_roles: all.filter((r) => r.scope === "team"),
    org_permissions: permissions.org,
    team_permissions: permissions.team,
  };
}
