import { ErrorCode, type SessionEntry, type User } from "@burnbox/contracts";
import type { ChangeEvents } from "@burnbox/service-kit/data";
import { AppError } from "@burnbox/service-kit/runtime";
import type { IdentityRepos } from "../../data/repositories";
import { selfActor } from "../audit-actor";
import type { IdentityDeps } from "../deps";
import { sessionCapOf } from "../platform/session-cap";
import { revokeSessions } from "../sessions/revocation";
import { openSession, type ClientInfo, type IssuedTokens } from "../sessions/session-tokens";

/** What a sign-in answers: the user and their new token pair. */
export interface AuthOutcome {
  user: User;
  tokens: IssuedTokens;
}

export type Admission =
  { kind: "in"; user: User; tokens: IssuedTokens; evicted: string[] } | { kind: "limit"; sessions: SessionEntry[]; limit: number };

/**
 * Opens a session for a user under the session limit, in the caller's transaction, holding the
 * user's lock. At the limit it answers "limit" (the caller issues a pending login), or, when
 * `fallback` says the pending-login store is down, revokes the oldest sessions to make room (spec 3.4).
 */
export async function admit(
  deps: IdentityDeps,
  repos: IdentityRepos,
  events: ChangeEvents,
  userId: string,
  client: ClientInfo,
  opts: { fallback: boolean; action: string },
): Promise<Admission> {
  await repos.sessions.lockUser(userId);
  const limit = await sessionCapOf(deps, repos, userId);
  const now = new Date(deps.now());
  // count first: the list is only needed at the limit
  const count = await repos.sessions.countActive(userId, now);
  let evicted: string[] = [];
  if (count >= limit) {
    const active = await repos.sessions.listActive(userId, now);
    if (!opts.fallback) return { kind: "limit", sessions: active, limit };
    evicted = active.slice(0, active.length - limit + 1).map((s) => s.id);
    await repos.sessions.revoke(userId, evicted, "session_limit", now);
  }
  const user = await repos.users.recordLogin(userId, new Date(deps.now()));
  const tokens = await openSession(deps, repos, user, client);
  events.audit({
    ctx: selfActor(userId, client.ip),
    action: opts.action,
    org_id: null,
    target: { type: "user", id: userId },
    ...(evicted.length ? { metadata: { revoked_sessions: evicted } } : {}),
  });
  return { kind: "in", user, tokens, evicted };
}

/** After the admission's transaction: the gateway learns of the sessions evicted to make room. */
export async function signedIn(deps: IdentityDeps, userId: string, a: Extract<Admission, { kind: "in" }>): Promise<AuthOutcome> {
  if (a.evicted.length) await revokeSessions(deps, userId, a.evicted, "session_limit");
  return { user: a.user, tokens: a.tokens };
}

/** 409 session_limit with the pending token, the active sessions and the limit (spec 7.3). */
export function sessionLimitError(pendingToken: string, sessions: SessionEntry[], limit: number): AppError {
  return new AppError(ErrorCode.session_limit, "session limit reached", { body: { pending_token: pendingToken, sessions, limit } });
}
