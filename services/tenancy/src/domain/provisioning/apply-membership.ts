import type { ProvisionMembershipReply } from "@burnbox/contracts";
import type { ChangeEvents } from "@burnbox/service-kit/data";
import type { TenancyRepos } from "../../data/repositories";
import { resolveRole } from "../roles/resolve-role";
import type { ProvisioningTargetInput } from "./check-provisioning-target.use-case";

export type MembershipInput = ProvisioningTargetInput & { user_id: string; provider: string };

/** `provisionMembership` inside a transaction the caller holds (the `user.sso_provisioned` consumer applies several in one). */
export async function applyMembership(tx: TenancyRepos, events: ChangeEvents, input: MembershipInput): Promise<ProvisionMembershipReply> {
  const orgScope = { orgId: input.org_id };
  if (!(await tx.orgs.exists(orgScope))) return { org: "org_not_found", team: "none" };
  if (!(await resolveRole(tx, "org", input.org_role))) return { org: "unknown_role", team: "none" };
  const teamRole = input.team_id ? await resolveRole(tx, "team", input.team_role ?? "member") : null;
  const teamScope = input.team_id ? { orgId: input.org_id, teamId: input.team_id } : null;
  const team = teamScope ? await tx.teams.get(teamScope) : null;

  let org: ProvisionMembershipReply["org"] = "existing";
  if (!(await tx.orgMembers.get(orgScope, input.user_id))) {
    await tx.orgMembers.add(orgScope, input.user_id, input.org_role);
    org = "added";
    events.audit({
      ctx: null,
      action: "member.added",
      org_id: input.org_id,
      target: { type: "member", id: input.user_id },
      metadata: { role: input.org_role, via: "sso_provisioning", provider: input.provider },
    });
  }
  if (!teamScope) return { org, team: "none" };
  if (!team) return { org, team: "team_not_found" };
  if (team.is_archived) return { org, team: "skipped_archived" };
  if (!teamRole) return { org, team: "unknown_role" };
  if (await tx.teamMembers.get(teamScope, input.user_id)) return { org, team: "existing" };
  await tx.teamMembers.add(teamScope, input.user_id, teamRole.value);
  events.audit({
    ctx: null,
    action: "team.member_added",
    org_id: input.org_id,
    team_id: teamScope.teamId,
    target: { type: "team_member", id: input.user_id },
    metadata: { role: teamRole.value, via: "sso_provisioning", provider: input.provider },
  });
  return { org, team: "added" };
}
