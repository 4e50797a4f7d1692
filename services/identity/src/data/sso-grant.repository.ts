import type { Prisma } from "../generated/prisma";
import type { Client } from "./prisma";

export type GrantKind = "state" | "code";

/** Single-use SSO handles by hash: taking one deletes it, so a replay finds nothing. */
export class SsoGrantRepository {
  constructor(private readonly db: Client) {}

  async put(kind: GrantKind, handleHash: string, payload: Prisma.InputJsonValue, expiresAt: Date): Promise<void> {
    await this.db.ssoGrant.create({ data: { handleHash, kind, payload, expiresAt } });
  }

  /** The payload of an unexpired handle of that kind, deleted in the same statement; null when unknown, used or old. */
  async take(kind: GrantKind, handleHash: string, now: Date): Promise<unknown> {
    const rows = await this.db.$queryRaw<{ payload: unknown; expires_at: Date }[]>`
      DELETE FROM sso_grants WHERE handle_hash = ${handleHash} AND kind = ${kind} RETURNING payload, expires_at`;
    const row = rows[0];
    return row && row.expires_at.getTime() > now.getTime() ? row.payload : null;
  }

  /**
   * Like `take`, for a handle bound to a browser: only when the payload's `flow` is `flowHash`. A
   * try from another browser finds nothing and leaves the handle to its own browser.
   */
  async takeBound(kind: GrantKind, handleHash: string, flowHash: string, now: Date): Promise<unknown> {
    const rows = await this.db.$queryRaw<{ payload: unknown; expires_at: Date }[]>`
      DELETE FROM sso_grants WHERE handle_hash = ${handleHash} AND kind = ${kind} AND payload->>'flow' = ${flowHash}
      RETURNING payload, expires_at`;
    const row = rows[0];
    return row && row.expires_at.getTime() > now.getTime() ? row.payload : null;
  }

  async purgeExpired(now: Date): Promise<number> {
    return (await this.db.ssoGrant.deleteMany({ where: { expiresAt: { lt: now } } })).count;
  }
}
