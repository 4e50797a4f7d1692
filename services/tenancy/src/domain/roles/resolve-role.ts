import type { Role, RoleScope } from "@burnbox/contracts";
import type { TenancyRepos } from "../../data/repositories";
import { SYSTEM_ROLES } from "./role-catalog";

/** A role by scope and value, system or custom (custom roles are assignable wherever a role is), or null. */
export async function resolveRole(repos: TenancyRepos, scope: RoleScope, value: string | null): Promise<Role | null> {
  if (value === null) return null;
  return SYSTEM_ROLES.find((r) => r.scope === scope && r.value === value) ?? (await repos.roles.byValue(scope, value));
}

/** A role's rank, 0 for none or an unknown one. */
export const rankOf = async (repos: TenancyRepos, scope: RoleScope, value: string | null): Promise<number> =>
  (await resolveRole(repos, scope, value))?.rank ?? 0;
