import type { RequestCtx } from "@burnbox/service-kit/http";
import type { IdentityDeps } from "../deps";
import { announceRevoked } from "../sessions/revocation";
import { requireSystemAdmin, requireUser } from "./system-admin";

/** Ends every session of a user. */
export async function revokeUserSessions(deps: IdentityDeps, ctx: RequestCtx, input: { userId: string }): Promise<void> {
  requireSystemAdmin(ctx);
  const { userId } = input;
  await requireUser(deps, userId);
  const revoked = await deps.data.write(async (repos, events) => {
    const ids = await repos.sessions.unrevokedIds(userId);
    await repos.sessions.revoke(userId, ids, "revoked_by_admin", new Date(deps.now()));
    events.audit({ ctx, action: "admin.user_sessions_revoked", org_id: null, target: { type: "user", id: userId } });
    return ids;
  });
  await announceRevoked(deps, revoked);
}
