import { randomUUID } from "node:crypto";
import { parseDurationMs, type CreateInviteBody, type Invite } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import { toInvite } from "../../data/invite.repository";
import { requireOrg } from "../access/require-access";
import type { TenancyDeps } from "../deps";
import { lookupUsers } from "../users";
import { checkInviteGrant } from "./invite-rules";
import { newInviteToken } from "./invite-token";
import { sendInviteMails } from "./send-invite-mails";

/**
 * Invites an address to the org (and teams): a new invite to the same address replaces the
 * pending one. The link is mailed; the token is stored only as its SHA-256 and never answered.
 */
export async function createInvite(deps: TenancyDeps, ctx: RequestCtx, input: { orgId: string } & CreateInviteBody): Promise<Invite> {
  const scope = await requireOrg(deps, ctx, input, "org.members.invite");
  const assignments = await checkInviteGrant(deps, ctx, scope, input);
  const existing = [...(await lookupUsers(deps, { emails: [input.email] })).values()][0];
  if (existing && (await deps.data.repos.orgMembers.get(scope, existing.id)))
    throw errors.conflict("user is already a member of this organization");
  const org = await deps.data.repos.orgs.get(scope);
  if (!org) throw errors.notFound("organization");
  const now = new Date(deps.now());
  const expiresAt = new Date(now.getTime() + parseDurationMs(deps.config.invites.ttl));
  const { token, hash } = newInviteToken();
  const invite = await deps.data.write(async (repos, events) => {
    await repos.invites.lockAddress(scope, input.email);
    const replaced = await repos.invites.revokePendingFor(scope, input.email, now);
    const created = await repos.invites.create(scope, {
      id: randomUUID(),
      email: input.email,
      orgRole: input.org_role,
      teamAssignments: assignments,
      tokenHash: hash,
      invitedBy: ctx.actor.user_id,
      expiresAt,
    });
    events.event("invite.created", {
      org_id: scope.orgId,
      team_id: null,
      data: {
        invite_id: created.id,
        email: created.email,
        org_role: created.orgRole,
        invited_by: created.invitedBy,
        expires_at: expiresAt.toISOString(),
      },
    });
    events.audit({
      ctx,
      action: "invite.created",
      org_id: scope.orgId,
      target: { type: "invite", id: created.id },
      metadata: { email: created.email, org_role: created.orgRole, team_ids: assignments.map((a) => a.team_id), replaced },
    });
    // last, so a mailer that cannot take it leaves nothing behind
    await sendInviteMails(deps, [
      {
        email: created.email,
        token,
        org_name: org.name,
        org_role: created.orgRole,
        inviter: ctx.actor.email,
        expires_at: expiresAt.toISOString(),
      },
    ]);
    return created;
  });
  return toInvite(invite, now);
}
