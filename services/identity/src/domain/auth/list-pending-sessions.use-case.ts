import type { SessionEntry } from "@burnbox/contracts";
import { errors } from "@burnbox/service-kit/runtime";
import type { IdentityDeps, PublicCtx } from "../deps";
import { sessionCapOf } from "../platform/session-cap";
import { readPendingLogin } from "./pending-login";

/** The sessions a pending login may revoke, and the limit; the token is not consumed. */
export async function listPendingSessions(
  deps: IdentityDeps,
  _ctx: PublicCtx,
  input: { token: string },
): Promise<{ sessions: SessionEntry[]; limit: number }> {
  const userId = await readPendingLogin(deps, input.token);
  if (!userId) throw errors.unauthenticated("invalid or expired pending login");
  const repos = deps.data.repos;
  const [limit, sessions] = await Promise.all([sessionCapOf(deps, repos, userId), repos.sessions.listActive(userId, new Date(deps.now()))]);
  return { sessions, limit };
}
