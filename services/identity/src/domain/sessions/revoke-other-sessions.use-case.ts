import type { RequestCtx } from "@burnbox/service-kit/http";
import type { IdentityDeps, Message } from "../deps";
import { revokeSessions } from "./revocation";

/** Revokes every active session of the caller except the one making the request. */
export async function revokeOtherSessions(deps: IdentityDeps, ctx: RequestCtx): Promise<Message> {
  const userId = ctx.actor.user_id;
  const others = await deps.data.repos.sessions.activeIds(userId, new Date(deps.now()), { except: ctx.actor.session_id });
  await revokeSessions(deps, userId, others, "revoked_by_user");
  return { message: `${others.length} other session(s) revoked` };
}
