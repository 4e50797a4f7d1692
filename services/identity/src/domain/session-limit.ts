import type { SessionEntry } from "@burnbox/contracts";
import type { Db, Tx } from "../data/prisma";
import type { IdentityDeps } from "./deps";

export const PLATFORM_MAX_SESSIONS = "max_sessions_per_user";

/** Serialises the logins of one user for the rest of the transaction (two logins at limit-1 cannot both win). */
export async function lockUser(tx: Tx, userId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${userId}))`;
}

/** Per-user cap, else the platform setting (PUT /admin/platform), else `defaults.max_sessions_per_user`. */
export async function sessionLimit(deps: IdentityDeps, db: Db | Tx, user: { maxSessions: number | null }): Promise<number> {
  if (user.maxSessions) return user.maxSessions;
  const platform = await db.platformSetting.findUnique({ where: { key: PLATFORM_MAX_SESSIONS } });
  return typeof platform?.value === "number" ? platform.value : deps.config.defaults.max_sessions_per_user;
}

/** A session that counts: neither revoked nor past its expiry. */
export const activeSessionWhere = (deps: IdentityDeps, userId: string) => ({
  userId,
  revokedAt: null,
  expiresAt: { gt: new Date(deps.now()) },
});

export async function activeSessions(deps: IdentityDeps, db: Db | Tx, userId: string) {
  return db.session.findMany({
    where: activeSessionWhere(deps, userId),
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
}

export const sessionEntry = (s: { id: string; ipAddress: string; userAgent: string; lastUsedAt: Date; createdAt: Date }): SessionEntry => ({
  id: s.id,
  ip_address: s.ipAddress,
  user_agent: s.userAgent,
  last_used_at: s.lastUsedAt.toISOString(),
  created_at: s.createdAt.toISOString(),
});
