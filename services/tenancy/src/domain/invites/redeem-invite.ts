import type { AcceptInviteResult } from "@burnbox/contracts";
import type { AuditActor } from "@burnbox/service-kit/data";
import { errors } from "@burnbox/service-kit/runtime";
import { statusAt } from "../../data/invite.repository";
import type { TenancyDeps } from "../deps";

export interface Redeemer {
  id: string;
  email: string;
}

/**
 * Makes `user` a member of an invite's org (with the invited role; an existing membership keeps
 * its role) and of its teams that still exist and are not archived, and marks the invite
 * accepted, in one transaction with the invite row locked, so it is used once.
 * Unknown, expired or revoked: 404; another address: 403; accepted before: 409, except that
 * `replay` (a redelivered registration event) accepts it again as a no-op for the same user.
 */
export async function redeemInvite(
  deps: TenancyDeps,
  input: { tokenHash: string; user: Redeemer; audit: AuditActor; replay?: boolean },
): Promise<AcceptInviteResult> {
  const now = new Date(deps.now());
  return deps.data.write(async (repos, events) => {
    const invite = await repos.invites.locateByTokenHash(input.tokenHash, { forUpdate: true });
    if (!invite) throw errors.notFound("invite");
    const scope = { orgId: invite.orgId };
    const org = await repos.orgs.get(scope);
    if (!org) throw errors.notFound("invite");
    const status = statusAt(invite, now);
    if (status === "accepted") {
      const role = await repos.orgMembers.roleOf(scope, input.user.id);
      if (input.replay && invite.acceptedBy === input.user.id && role) return { org, role };
      throw errors.conflict("invite already accepted");
    }
    if (status !== "pending") throw errors.notFound("invite");
    if (invite.email.toLowerCase() !== input.user.email.trim().toLowerCase())
      throw errors.forbidden("this invite was sent to another email address");

    let role = await repos.orgMembers.roleOf(scope, input.user.id);
    if (!role) {
      role = (await repos.orgMembers.add(scope, input.user.id, invite.orgRole)).role;
      events.event("member.added", { org_id: scope.orgId, team_id: null, data: { user_id: input.user.id, role } });
    }
    const joined: string[] = [];
    for (const a of invite.teamAssignments) {
      const teamScope = { ...scope, teamId: a.team_id };
      const team = await repos.teams.get(teamScope);
      // a team deleted, moved or archived since the invite is skipped: the org membership still holds
      if (!team || team.is_archived || (await repos.teamMembers.get(teamScope, input.user.id))) continue;
      await repos.teamMembers.add(teamScope, input.user.id, a.team_role);
      joined.push(team.id);
      events.event("team.member_added", {
        org_id: scope.orgId,
        team_id: team.id,
        data: { user_id: input.user.id, team_id: team.id, team_name: team.name, role: a.team_role, added_by: invite.invitedBy },
      });
    }
    if (!(await repos.invites.markAccepted(invite.id, input.user.id, now))) throw errors.conflict("invite already accepted");
    events.event("invite.accepted", {
      org_id: scope.orgId,
      team_id: null,
      data: { org_id: scope.orgId, invite_id: invite.id, email: invite.email, user_id: input.user.id, invited_by: invite.invitedBy },
    });
    events.audit({
      ctx: input.audit,
      action: "invite.accepted",
      org_id: scope.orgId,
      target: { type: "invite", id: invite.id },
      metadata: { email: invite.email, org_role: role, team_ids: joined },
    });
    return { org, role };
  });
}
