import { randomUUID } from "node:crypto";
import {
  parseDurationMs,
  type BulkCreateInvitesBody,
  type BulkCreateInvitesResult,
  type InviteMailFields,
  type InviteSkipReason,
} from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import { toInvite, type StoredInvite } from "../../data/invite.repository";
import { requireOrg } from "../access/require-access";
import type { TenancyDeps } from "../deps";
import { lookupUsers } from "../users";
import { checkInviteGrant } from "./invite-rules";
import { newInviteToken } from "./invite-token";
import { sendInviteMails } from "./send-invite-mails";

/**
 * Invites up to 50 addresses with one role (and teams). An address named twice, one of a member
 * or one with a pending invite is skipped with its reason; the others are invited and mailed.
 */
export async function bulkCreateInvites(
  deps: TenancyDeps,
  ctx: RequestCtx,
  input: { orgId: string } & BulkCreateInvitesBody,
): Promise<BulkCreateInvitesResult> {
  const scope = await requireOrg(deps, ctx, input, "org.members.invite");
  const assignments = await checkInviteGrant(deps, ctx, scope, input);
  const org = await deps.data.repos.orgs.get(scope);
  if (!org) throw errors.notFound("organization");

  const skipped: Array<{ email: string; reason: InviteSkipReason }> = [];
  const seen = new Set<string>();
  const unique: string[] = [];
  for (const email of input.emails) {
    if (seen.has(email)) skipped.push({ email, reason: "duplicate_in_request" });
    else {
      seen.add(email);
      unique.push(email);
    }
  }
  const users = await lookupUsers(deps, { emails: unique });
  const memberEmails = new Set<string>();
  for (const u of users.values()) {
    if (await deps.data.repos.orgMembers.get(scope, u.id)) memberEmails.add(u.email.toLowerCase());
  }

  const now = new Date(deps.now());
  const expiresAt = new Date(now.getTime() + parseDurationMs(deps.config.invites.ttl));
  const created = await deps.data.write(async (repos, events) => {
    const made: StoredInvite[] = [];
    const mails: InviteMailFields[] = [];
    for (const email of unique) {
      if (memberEmails.has(email)) {
        skipped.push({ email, reason: "already_member" });
        continue;
      }
      await repos.invites.lockAddress(scope, email);
      if ((await repos.invites.pendingFor(scope, [email], now)).length > 0) {
        skipped.push({ email, reason: "already_invited" });
        continue;
      }
      const { token, hash } = newInviteToken();
      const invite = await repos.invites.create(scope, {
        id: randomUUID(),
        email,
        orgRole: input.org_role,
        teamAssignments: assignments,
        tokenHash: hash,
        invitedBy: ctx.actor.user_id,
        expiresAt,
      });
      made.push(invite);
      mails.push({
        email,
        token,
        org_name: org.name,
        org_role: invite.orgRole,
        inviter: ctx.actor.email,
        expires_at: expiresAt.toISOString(),
      });
      events.event("invite.created", {
        org_id: scope.orgId,
        team_id: null,
        data: { invite_id: invite.id, email, org_role: invite.orgRole, invited_by: invite.invitedBy, expires_at: expiresAt.toISOString() },
      });
      events.audit({
        ctx,
        action: "invite.created",
        org_id: scope.orgId,
        target: { type: "invite", id: invite.id },
        metadata: { email, org_role: invite.orgRole, team_ids: assignments.map((a) => a.team_id), bulk: true },
      });
    }
    await sendInviteMails(deps, mails);
    return made;
  });
  return { created: created.map((i) => toInvite(i, now)), skipped };
}
