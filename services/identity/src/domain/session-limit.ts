import type { Tx } from "../data/prisma";
import type { IdentityDeps } from "./deps";

/**
 * Serialises logins of one user (a transaction-scoped advisory lock), so two concurrent logins
 * at limit-1 cannot both open a session. Returns the ids of sessions that had to be revoked to
 * make room (the oldest first).
 */
export async function enforceSessionLimit(deps: IdentityDeps, tx: Tx, user: { id: string; maxSessions: number | null }): Promise<string[]> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${user.id}))`;
  const limit = user.maxSessions ?? deps.config.defaults.max_sessions_per_user;
  const now = new Date(deps.now());
  const active = await tx.session.findMany({
    where: { userId: user.id, revokedAt: null, expiresAt: { gt: now } },
    orderBy: { createdAt: "asc" },
    select: { id: true },
  });
  if (active.length < limit) return [];
  const evict = active.slice(0, active.length - limit + 1).map((s) => s.id);
  await tx.session.updateMany({ where: { id: { in: evict } }, data: { revokedAt: now, revokedReason: "session_limit" } });
  return evict;
}
