import { ORG_PERMISSIONS, TEAM_PERMISSION_KEY, type RoleScope } from "@burnbox/contracts";
import { TOP_RANK } from "./role-catalog";

/**
 * Why a custom role is refused (400), or null: its rank from 1 to one below the top system role
 * of its scope; org roles hold known org keys only; team keys are `team.` and dotted lowercase
 * words (a new one becomes a permission, and an API-key scope, at once).
 */
export function customRoleProblem(role: { scope: RoleScope; rank?: number; permissions?: readonly string[] }): string | null {
  if (role.rank !== undefined && (role.rank < 1 || role.rank >= TOP_RANK[role.scope])) {
    return `rank must be between 1 and ${TOP_RANK[role.scope] - 1} for ${role.scope} roles`;
  }
  for (const p of role.permissions ?? []) {
    if (role.scope === "org" && !(ORG_PERMISSIONS as readonly string[]).includes(p)) return `unknown org permission ${p}`;
    if (role.scope === "team" && !TEAM_PERMISSION_KEY.test(p)) return `team permission keys look like team.<words>: ${p}`;
  }
  return null;
}
