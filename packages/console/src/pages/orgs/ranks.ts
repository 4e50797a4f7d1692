// The rank rules of org roles (contract notes, Tenancy): who may change whose role, to what, and
// who may deactivate whom. The API decides; the console only leaves out what it would refuse.

export interface RankedRole {
  value: string;
  rank: number;
}

/** The rank of `role` among `roles` (0 when unknown). */
export const rankOf = (roles: readonly RankedRole[], role: string | undefined): number => roles.find((r) => r.value === role)?.rank ?? 0;

/**
 * The roles `actorRole` may give a member who holds `targetRole`: none unless the actor ranks
 * strictly above the target, and never one above the actor's own. Lowering one's own role is
 * always allowed (`self`). A system admin (`bypass`) may give any role.
 */
export function assignableRoles<R extends RankedRole>(
  roles: readonly R[],
  actorRole: string | undefined,
  targetRole: string,
  opts: { self?: boolean; bypass?: boolean } = {},
): R[] {
  if (opts.bypass) return [...roles];
  const actor = rankOf(roles, actorRole);
  const target = rankOf(roles, targetRole);
  if (opts.self) return roles.filter((r) => r.rank <= actor);
  if (actor <= target) return [];
  return roles.filter((r) => r.rank <= actor);
}

/** Whether the actor may deactivate a member holding `targetRole` (anyone may leave: `self`). */
export function mayDeactivate(
  roles: readonly RankedRole[],
  actorRole: string | undefined,
  targetRole: string,
  opts: { self?: boolean; bypass?: boolean } = {},
): boolean {
  if (opts.bypass || opts.self) return true;
  return rankOf(roles, actorRole) > rankOf(roles, targetRole);
}
