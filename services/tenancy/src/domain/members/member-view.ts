import type { LookedUpUser, Member, TeamMember } from "@burnbox/contracts";
import type { Membership } from "../../data/org-member.repository";

/**
 * A membership row with the user's details from identity. A member's `id` is stable and unique
 * per membership, so it is the user's id (membership rows are keyed by org or team and user).
 */
export function toMember(orgId: string, m: Membership, u: LookedUpUser | undefined): Member {
  return {
    id: m.userId,
    user_id: m.userId,
    org_id: orgId,
    role: m.role,
    email: u?.email ?? "",
    display_name: u?.display_name ?? "",
    created_at: m.createdAt.toISOString(),
    last_login_at: u?.last_login_at ?? null,
  };
}

export function toTeamMember(teamId: string, m: Membership, u: LookedUpUser | undefined): TeamMember {
  return {
    id: m.userId,
    user_id: m.userId,
    team_id: teamId,
    role: m.role,
    email: u?.email ?? "",
    display_name: u?.display_name ?? "",
    created_at: m.createdAt.toISOString(),
  };
}
