import { ORG_ROLES, TEAM_ROLES, type OrgRole, type TeamRole } from "@burnbox/contracts";

/** Ranks of the contract notes: org owner 30, admin 20, member 10; team lead 20, member 10. */
export const ORG_RANK: Record<OrgRole, number> = { owner: 30, admin: 20, member: 10 };
export const TEAM_RANK: Record<TeamRole, number> = { lead: 20, member: 10 };
/** Org owners and admins rank above every team role of their org; system admins above everyone. */
export const ABOVE_EVERY_TEAM_ROLE = 100;
export const SYSTEM_ADMIN_RANK = 1000;

export const isOrgRole = (r: string): r is OrgRole => (ORG_ROLES as readonly string[]).includes(r);
export const isTeamRole = (r: string): r is TeamRole => (TEAM_ROLES as readonly string[]).includes(r);

export type RankVerdict = "allowed" | "rank_too_low";

/**
 * Whether an actor may move a target from one role to another (role change, removal with
 * `to` null). Anyone may lower their own role or leave. Otherwise the actor's rank must be
 * strictly above the target's current one, and the new role never above the actor's own.
 */
export function rankVerdict(input: { actorRank: number; targetRank: number; newRank: number | null; self: boolean }): RankVerdict {
  const { actorRank, targetRank, newRank, self } = input;
  if (self) return newRank === null || newRank <= targetRank ? "allowed" : "rank_too_low";
  if (actorRank <= targetRank) return "rank_too_low";
  if (newRank !== null && newRank > actorRank) return "rank_too_low";
  return "allowed";
}
