import { errors } from "@burnbox/service-kit";
import type { Tx } from "../data/prisma";
import type { IdentityDeps } from "./deps";
import { opaqueToken, sha256 } from "./tokens";

export type UserTokenKind = "reset_password" | "verify_email";
const LIFETIME_MS: Record<UserTokenKind, number> = { reset_password: 60 * 60_000, verify_email: 7 * 24 * 60 * 60_000 };

/** A single-use token for mail links; only its hash is stored. Earlier unused tokens of the kind are voided. */
export async function issueUserToken(deps: IdentityDeps, tx: Tx, userId: string, kind: UserTokenKind): Promise<string> {
  const token = opaqueToken();
  const now = deps.now();
  await tx.userToken.updateMany({ where: { userId, kind, usedAt: null }, data: { usedAt: new Date(now) } });
  await tx.userToken.create({
    data: { tokenHash: sha256(token), userId, kind, expiresAt: new Date(now + LIFETIME_MS[kind]), createdAt: new Date(now) },
  });
  return token;
}

/** Claims a token atomically; the same 400 for unknown, used and expired tokens. */
export async function consumeUserToken(deps: IdentityDeps, tx: Tx, token: string, kind: UserTokenKind): Promise<string> {
  const now = new Date(deps.now());
  const rows = await tx.userToken.updateManyAndReturn({
    where: { tokenHash: sha256(token), kind, usedAt: null, expiresAt: { gt: now } },
    data: { usedAt: now },
  });
  const row = rows[0];
  if (!row) throw errors.validation("invalid or expired token");
  return row.userId;
}
