import type { Session, SessionEntry } from "@burnbox/contracts";
import type { Prisma } from "../generated/prisma";
import type { Client } from "./prisma";

type SessionRow = Prisma.SessionGetPayload<object>;

/** A session as the caller's session list shows it (`current` is the caller's business). */
export type ListedSession = Omit<Session, "current">;

const toSessionEntry = (s: SessionRow): SessionEntry => ({
  id: s.id,
  ip_address: s.ipAddress,
  user_agent: s.userAgent,
  last_used_at: s.lastUsedAt.toISOString(),
  created_at: s.createdAt.toISOString(),
});

const toListedSession = (s: SessionRow): ListedSession => ({ ...toSessionEntry(s), expires_at: s.expiresAt.toISOString() });

/** A session that counts: neither revoked nor past its expiry. */
const activeWhere = (userId: string, now: Date) => ({ userId, revokedAt: null, expiresAt: { gt: now } });

export interface NewSession {
  id: string;
  ipAddress: string;
  userAgent: string;
  createdAt: Date;
  expiresAt: Date;
  /** SHA-256 of the session's first refresh token. */
  refreshHash: string;
}

/** Where a refresh token leads: found by its hash, before the caller is known. */
export interface LocatedRefreshToken {
  sessionId: string;
  userId: string;
  sessionRevoked: boolean;
  sessionExpiresAt: Date;
}

/**
 * Sessions and their rotating refresh tokens. The tenant of a session is its user: every method
 * takes the user id; `locateRefreshToken` is the one lookup by a secret whose owner is not yet known.
 */
export class SessionRepository {
  constructor(private readonly db: Client) {}

  /** Serialises the logins of one user for the rest of the transaction (two logins at limit-1 cannot both win). */
  async lockUser(userId: string): Promise<void> {
    await this.db.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${userId}))`;
  }

  async open(userId: string, s: NewSession): Promise<void> {
    await this.db.session.create({
      data: {
        id: s.id,
        userId,
        ipAddress: s.ipAddress,
        userAgent: s.userAgent,
        createdAt: s.createdAt,
        lastUsedAt: s.createdAt,
        expiresAt: s.expiresAt,
      },
    });
    await this.db.refreshToken.create({ data: { tokenHash: s.refreshHash, sessionId: s.id, createdAt: s.createdAt } });
  }

  countActive(userId: string, now: Date): Promise<number> {
    return this.db.session.count({ where: activeWhere(userId, now) });
  }

  /** The active sessions, oldest first (the session-limit answer and the order sessions are evicted in). */
  async listActive(userId: string, now: Date): Promise<SessionEntry[]> {
    const rows = await this.db.session.findMany({ where: activeWhere(userId, now), orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
    return rows.map(toSessionEntry);
  }

  /** One page of the active sessions, newest first. */
  async pageActive(userId: string, now: Date, window: { skip: number; take: number }): Promise<ListedSession[]> {
    const rows = await this.db.session.findMany({
      where: activeWhere(userId, now),
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      ...window,
    });
    return rows.map(toListedSession);
  }

  async isActive(userId: string, sessionId: string, now: Date): Promise<boolean> {
    return (await this.db.session.count({ where: { id: sessionId, ...activeWhere(userId, now) } })) > 0;
  }

  /** Active session ids, optionally but one (the caller's own). */
  async activeIds(userId: string, now: Date, opts: { except?: string | null } = {}): Promise<string[]> {
    const rows = await this.db.session.findMany({
      where: { ...activeWhere(userId, now), NOT: { id: opts.except ?? undefined } },
      select: { id: true },
    });
    return rows.map((r) => r.id);
  }

  /**
   * Ids of the sessions not yet revoked, expired ones included: what a password change, a reset,
   * an admin action or an account deletion ends (an access token may outlive its session's expiry).
   */
  async unrevokedIds(userId: string, opts: { except?: string | null } = {}): Promise<string[]> {
    const rows = await this.db.session.findMany({
      where: { userId, revokedAt: null, NOT: { id: opts.except ?? undefined } },
      select: { id: true },
    });
    return rows.map((r) => r.id);
  }

  /** Marks the user's listed sessions revoked; those already revoked keep their first reason. */
  async revoke(userId: string, sessionIds: string[], reason: string, at: Date): Promise<void> {
    await this.db.session.updateMany({
      where: { id: { in: sessionIds }, userId, revokedAt: null },
      data: { revokedAt: at, revokedReason: reason },
    });
  }

  /** Whether a session (from an access token's `sid`, owner unknown) is revoked; null when it does not exist. */
  async locateStatus(sessionId: string): Promise<{ revoked: boolean } | null> {
    const row = await this.db.session.findUnique({ where: { id: sessionId }, select: { revokedAt: true } });
    return row ? { revoked: row.revokedAt !== null } : null;
  }

  /** Sessions of every user revoked since `since`, with when: what the gateway's revocation list must hold. */
  async listRevokedSince(since: Date): Promise<Array<{ id: string; revokedAt: Date }>> {
    const rows = await this.db.session.findMany({ where: { revokedAt: { gt: since } }, select: { id: true, revokedAt: true } });
    return rows.flatMap((r) => (r.revokedAt ? [{ id: r.id, revokedAt: r.revokedAt }] : []));
  }

  async locateRefreshToken(tokenHash: string): Promise<LocatedRefreshToken | null> {
    const row = await this.db.refreshToken.findUnique({
      where: { tokenHash },
      select: { sessionId: true, session: { select: { userId: true, revokedAt: true, expiresAt: true } } },
    });
    return row
      ? {
          sessionId: row.sessionId,
          userId: row.session.userId,
          sessionRevoked: row.session.revokedAt !== null,
          sessionExpiresAt: row.session.expiresAt,
        }
      : null;
  }

  /** Marks a refresh token used, atomically: false when it already was (two refreshes with one token cannot both win). */
  async claimRefreshToken(userId: string, tokenHash: string, at: Date): Promise<boolean> {
    const claimed = await this.db.refreshToken.updateMany({
      where: { tokenHash, usedAt: null, session: { userId } },
      data: { usedAt: at },
    });
    return claimed.count > 0;
  }

  /** The next refresh token of a session; the session counts as used now. */
  async addRefreshToken(userId: string, sessionId: string, tokenHash: string, at: Date): Promise<void> {
    await this.db.refreshToken.create({ data: { tokenHash, sessionId, createdAt: at } });
    await this.db.session.updateMany({ where: { id: sessionId, userId }, data: { lastUsedAt: at } });
  }
}
