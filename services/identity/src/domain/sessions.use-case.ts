import { pageWindow, toPage, type Actor, type Page, type PaginationQuery, type Session } from "@burnbox/contracts";
import { errors } from "@burnbox/service-kit";
import type { IdentityDeps } from "./deps";
import { audit } from "./auth.use-case";
import { activeSessionWhere } from "./session-limit";
import { revokeSessions } from "./sessions";

/** The caller's active sessions, newest first; `current` marks the one making the request. */
export async function listSessions(deps: IdentityDeps, actor: Actor, q: PaginationQuery): Promise<Page<Session>> {
  const where = activeSessionWhere(deps, actor.user_id);
  const [rows, total] = await Promise.all([
    deps.db.session.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], ...pageWindow(q) }),
    deps.db.session.count({ where }),
  ]);
  return toPage(
    rows.map((s) => ({
      id: s.id,
      ip_address: s.ipAddress,
      user_agent: s.userAgent,
      last_used_at: s.lastUsedAt.toISOString(),
      created_at: s.createdAt.toISOString(),
      expires_at: s.expiresAt.toISOString(),
      current: s.id === actor.session_id,
    })),
    total,
    q,
  );
}

export async function revokeOwnSession(deps: IdentityDeps, actor: Actor, sessionId: string): Promise<void> {
  const s = await deps.db.session.findFirst({ where: { id: sessionId, ...activeSessionWhere(deps, actor.user_id) }, select: { id: true } });
  if (!s) throw errors.notFound("session");
  await revokeSessions(deps, [s.id], "revoked_by_user");
  await recordRevocation(deps, actor, [s.id], "user.session_revoked");
}

async function recordRevocation(deps: IdentityDeps, actor: Actor, ids: string[], action: string): Promise<void> {
  if (ids.length === 0) return;
  await deps.db.$transaction((tx) => audit(deps, tx, action, actor.user_id, null, { session_ids: ids }, actor));
  deps.relay.kick();
}

/** Revokes every session of the caller except the one making the request. */
export async function revokeOtherSessions(deps: IdentityDeps, actor: Actor): Promise<number> {
  const rows = await deps.db.session.findMany({
    where: { ...activeSessionWhere(deps, actor.user_id), NOT: { id: actor.session_id ?? undefined } },
    select: { id: true },
  });
  await revokeSessions(
    deps,
    rows.map((r) => r.id),
    "revoked_by_user",
  );
  return rows.length;
}
