import { selfActor } from "../audit-actor";
import type { IdentityDeps, Message, PublicCtx } from "../deps";
import { revokeSessions } from "../sessions/revocation";
import { isListedAdmin } from "./listed-admin";
import { consumeMailToken } from "./mail-tokens";

/**
 * Confirms the address a verification link was mailed to (400 for an unknown, used or expired
 * link). An address in `admin.emails` becomes a system admin here, and only here: following the
 * link proves the address, which registering it does not. Like any change of admin rights, it ends
 * the account's sessions (their access tokens say "no admin"); the owner signs in again as admin.
 */
export async function verifyEmail(deps: IdentityDeps, _ctx: PublicCtx, input: { token: string }): Promise<Message> {
  const promoted = await deps.data.write(async (repos, events) => {
    const userId = await consumeMailToken(deps, repos, input.token, "verify_email");
    const user = await repos.users.get(userId);
    const promote = user !== null && !user.is_system_admin && isListedAdmin(deps, user.email);
    await repos.users.update(userId, { emailVerified: true, ...(promote ? { isSystemAdmin: true } : {}) });
    events.audit({ ctx: selfActor(userId, null), action: "user.email_verified", org_id: null, target: { type: "user", id: userId } });
    if (promote) {
      events.audit({
        ctx: selfActor(userId, null),
        action: "user.admin_granted",
        org_id: null,
        target: { type: "user", id: userId },
        metadata: { reason: "admin_emails_verified" },
      });
    }
    return promote ? userId : null;
  });
  if (!promoted) return { message: "email address verified" };
  await revokeSessions(deps, promoted, await deps.data.repos.sessions.unrevokedIds(promoted), "admin_rights_changed");
  return { message: "email address verified; this account is now a system admin: sign in again" };
}
