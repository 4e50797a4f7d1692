import { errors } from "@burnbox/service-kit/runtime";
import type { UserTokenKind } from "../../data/user-token.repository";
import type { IdentityRepos } from "../../data/repositories";
import type { IdentityDeps } from "../deps";
import { opaqueToken, sha256 } from "../tokens";

const LIFETIME_MS: Record<UserTokenKind, number> = { reset_password: 60 * 60_000, verify_email: 7 * 24 * 60 * 60_000 };

/** A single-use token for a mail link; only its hash is stored. Earlier unused tokens of the kind are voided. */
export async function issueMailToken(deps: IdentityDeps, repos: IdentityRepos, userId: string, kind: UserTokenKind): Promise<string> {
  const token = opaqueToken();
  const now = deps.now();
  await repos.userTokens.issue(userId, {
    kind,
    hash: sha256(token),
    createdAt: new Date(now),
    expiresAt: new Date(now + LIFETIME_MS[kind]),
  });
  return token;
}

/** Claims a token atomically and returns its user; the same 400 for unknown, used and expired tokens. */
export async function consumeMailToken(deps: IdentityDeps, repos: IdentityRepos, token: string, kind: UserTokenKind): Promise<string> {
  const userId = await repos.userTokens.claim(sha256(token), kind, new Date(deps.now()));
  if (!userId) throw errors.validation("invalid or expired token");
  return userId;
}
