import type { Client } from "./prisma";

export type UserTokenKind = "reset_password" | "verify_email";

/** Single-use mail-link tokens (password reset, email verification), stored as SHA-256 only. */
export class UserTokenRepository {
  constructor(private readonly db: Client) {}

  /** Stores a new token of the kind for the user; the user's earlier unused tokens of that kind are voided. */
  async issue(userId: string, token: { kind: UserTokenKind; hash: string; createdAt: Date; expiresAt: Date }): Promise<void> {
    await this.db.userToken.updateMany({ where: { userId, kind: token.kind, usedAt: null }, data: { usedAt: token.createdAt } });
    await this.db.userToken.create({
      data: { tokenHash: token.hash, userId, kind: token.kind, expiresAt: token.expiresAt, createdAt: token.createdAt },
    });
  }

  /**
   * Claims an unused, unexpired token atomically and returns its user: a token is found by its
   * hash before anyone is known. Null for unknown, used and expired tokens alike.
   */
  async claim(hash: string, kind: UserTokenKind, at: Date): Promise<string | null> {
    const rows = await this.db.userToken.updateManyAndReturn({
      where: { tokenHash: hash, kind, usedAt: null, expiresAt: { gt: at } },
      data: { usedAt: at },
      select: { userId: true },
    });
    return rows[0]?.userId ?? null;
  }
}
