import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import type { IdentityDeps, Message } from "../deps";
import { announceRevoked } from "./revocation";

/** Revokes one of the caller's active sessions; any other id is not found. */
export async function revokeSession(deps: IdentityDeps, ctx: RequestCtx, input: { sessionId: string }): Promise<Message> {
  const userId = ctx.actor.user_id;
  const now = new Date(deps.now());
  if (!(await deps.data.repos.sessions.isActive(userId, input.sessionId, now))) throw errors.notFound("session");
  await deps.data.write(async (repos, events) => {
    await repos.sessions.revoke(userId, [input.sessionId], "revoked_by_user", now);
    events.audit({
      ctx: { actor: ctx.actor, ip: null },
      action: "user.session_revoked",
      org_id: null,
      target: { type: "user", id: userId },
      metadata: { session_ids: [input.sessionId] },
    });
  });
  await announceRevoked(deps, [input.sessionId]);
  return { message: "session revoked" };
}
