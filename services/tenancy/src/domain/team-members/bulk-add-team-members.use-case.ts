import type { BulkAddTeamMembersBody, BulkAddTeamMembersResult } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { requireWritableTeam, teamRankOf } from "../access/require-access";
import type { TenancyDeps } from "../deps";
import { toTeamMember } from "../members/member-view";
import { resolveRole } from "../roles/resolve-role";
import { lookupUsers } from "../users";
import { emitTeamMemberAdded } from "../members/membership-events";

/** Adds up to 50 org members to the team in one change; each one that cannot be added is skipped with its reason. */
export async function bulkAddTeamMembers(
  deps: TenancyDeps,
  ctx: RequestCtx,
  input: { orgId: string; teamId: string } & BulkAddTeamMembersBody,
): Promise<BulkAddTeamMembersResult> {
  const scope = await requireWritableTeam(deps, ctx, input, "team.members.manage");
  const actorRank = await teamRankOf(deps, ctx, scope);
  const users = await lookupUsers(deps, {
    ids: input.members.flatMap((m) => (m.user_id ? [m.user_id] : [])),
    emails: input.members.flatMap((m) => (m.email ? [m.email] : [])),
  });
  const byEmail = new Map([...users.values()].map((u) => [u.email.toLowerCase(), u]));
  return deps.data.write(async (repos, events) => {
    const [orgMembers, teamMembers] = await Promise.all([repos.orgMembers.listAll(scope), repos.teamMembers.listAll(scope)]);
    const inOrg = new Set(orgMembers.map((m) => m.userId));
    const taken = new Set(teamMembers.map((m) => m.userId));
    const seen = new Set<string>();
    const result: BulkAddTeamMembersResult = { added: [], skipped: [] };
    for (const entry of input.members) {
      const identifier = entry.user_id ?? entry.email ?? "";
      const user = entry.user_id ? users.get(entry.user_id) : byEmail.get(identifier);
      const role = await resolveRole(repos, "team", entry.role);
      const skip = (reason: string) => result.skipped.push({ identifier, reason });
      if (seen.has(identifier)) skip("duplicate_in_request");
      else if (!user || !inOrg.has(user.id)) skip("not_org_member");
      else if (!role) skip("unknown_role");
      else if (role.rank > actorRank) skip("rank_too_high");
      else if (taken.has(user.id)) skip("already_member");
      else {
        const row = await repos.teamMembers.add(scope, user.id, role.value);
        taken.add(user.id);
        await emitTeamMemberAdded(repos, events, scope, { userId: user.id, role: role.value, addedBy: ctx.actor.user_id });
        result.added.push(toTeamMember(scope.teamId, row, user));
        events.audit({
          ctx,
          action: "team.member_added",
          org_id: scope.orgId,
          team_id: scope.teamId,
          target: { type: "team_member", id: user.id },
          metadata: { role: role.value, email: user.email, bulk: true },
        });
      }
      seen.add(identifier);
    }
    return result;
  });
}
