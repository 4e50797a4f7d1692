import { RpcName, type LookedUpUser, type User } from "@burnbox/contracts";
import { serveRpc } from "@burnbox/service-kit/messaging";
import type { IdentityDeps } from "../domain/deps";
import { inviteMail } from "../domain/invites/invite-mail";

const looked = (u: User): LookedUpUser => ({
  id: u.id,
  email: u.email,
  display_name: u.display_name,
  last_login_at: u.last_login_at ?? null,
});

/**
 * What tenancy asks identity: who its members are (a Member shows the user's email and name) and
 * whether a password confirms a dangerous change (deleting an org). Read-only questions.
 */
export function serveTenancySupportRpc(deps: IdentityDeps): Array<{ stop(): Promise<void> }> {
  const ns = deps.config.nats.namespace;
  const { users } = deps.data.repos;
  return [
    serveRpc(
      deps.nc,
      ns,
      RpcName.lookupUsers,
      async (req) => {
        const byEmail = await Promise.all(req.emails.map((e) => users.locateByEmail(e.trim().toLowerCase())));
        const ids = [...new Set([...req.user_ids, ...byEmail.flatMap((c) => (c ? [c.userId] : []))])];
        const found = await Promise.all(ids.map((id) => users.get(id)));
        return { users: found.flatMap((u) => (u ? [looked(u)] : [])) };
      },
      deps.logger,
    ),
    serveRpc(
      deps.nc,
      ns,
      RpcName.verifyPassword,
      async (req) => {
        const row = await users.passwordHash(req.user_id);
        if (!row?.passwordHash) return { valid: false, has_password: false };
        return { valid: await deps.hasher.verify(row.passwordHash, req.password), has_password: true };
      },
      deps.logger,
    ),
    // invite links go out through identity's mailer; the token is only in this request and the mail
    serveRpc(
      deps.nc,
      ns,
      RpcName.sendInviteMail,
      (req) => {
        for (const m of req.mails) deps.mailer.send(inviteMail(deps.config.base_url, m));
        return Promise.resolve({ queued: req.mails.length });
      },
      deps.logger,
    ),
    // the admin statistics (spec 2.7): a count over the primary key, for tenancy's GET /admin/stats and stream
    serveRpc(deps.nc, ns, RpcName.countUsers, async () => ({ total_users: await users.count() }), deps.logger),
  ];
}
