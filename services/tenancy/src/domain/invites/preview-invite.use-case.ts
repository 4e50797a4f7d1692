import type { InvitePreview } from "@burnbox/contracts";
import { errors } from "@burnbox/service-kit/runtime";
import { statusAt } from "../../data/invite.repository";
import type { TenancyDeps } from "../deps";
import { hashInviteToken, isInviteToken } from "./invite-token";

/** What an invite link offers, for anyone holding it (no sign-in): only a pending, unexpired invite; else 404. */
export async function previewInvite(deps: TenancyDeps, input: { token: string }): Promise<InvitePreview> {
  if (!isInviteToken(input.token)) throw errors.notFound("invite");
  const invite = await deps.data.repos.invites.locateByTokenHash(hashInviteToken(input.token));
  if (!invite || statusAt(invite, new Date(deps.now())) !== "pending") throw errors.notFound("invite");
  const org = await deps.data.repos.orgs.get({ orgId: invite.orgId });
  if (!org) throw errors.notFound("invite");
  return {
    email: invite.email,
    org_name: org.name,
    org_role: invite.orgRole,
    team_assignments: invite.teamAssignments,
    expires_at: invite.expiresAt.toISOString(),
  };
}
