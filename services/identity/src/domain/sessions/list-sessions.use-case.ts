import type { Page, PaginationQuery, Session } from "@burnbox/contracts";
import { paginate } from "@burnbox/service-kit/data";
import type { RequestCtx } from "@burnbox/service-kit/http";
import type { IdentityDeps } from "../deps";

/** The caller's active sessions, newest first; `current` marks the one making the request. */
export async function listSessions(deps: IdentityDeps, ctx: RequestCtx, query: PaginationQuery): Promise<Page<Session>> {
  const userId = ctx.actor.user_id;
  const sessions = deps.data.repos.sessions;
  const now = new Date(deps.now());
  return paginate(query, {
    rows: (window) => sessions.pageActive(userId, now, window),
    count: () => sessions.countActive(userId, now),
    map: (rows) => rows.map((s) => ({ ...s, current: s.id === ctx.actor.session_id })),
  });
}
