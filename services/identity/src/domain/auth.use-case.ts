import { randomUUID } from "node:crypto";
import {
  ErrorCode,
  pageWindow,
  parseDurationMs,
  toPage,
  type Actor,
  type LoginBody,
  type Page,
  type PaginationQuery,
  type RegisterBody,
  type SessionEntry,
  type User,
} from "@burnbox/contracts";
import { AppError, auditEvent, errors, outboxRow } from "@burnbox/service-kit";
import { isUniqueViolation, type Prisma, type Tx } from "../data/prisma";
import { userView } from "../data/views";
import type { ClientInfo, IdentityDeps } from "./deps";
import { passwordProblem } from "./passwords";
import { createPendingLogin, dropPendingLogin, readPendingLogin } from "./pending-login";
import { activeSessionWhere, activeSessions, lockUser, sessionEntry, sessionLimit } from "./session-limit";
import { openSession, revokeSessions, type IssuedTokens } from "./sessions";
import { issueUserToken } from "./user-tokens";

export interface AuthOutcome {
  user: User;
  tokens: IssuedTokens;
}

type UserRow = Prisma.UserGetPayload<object>;
const ns = (deps: IdentityDeps) => deps.config.nats.namespace;

export async function audit(
  deps: IdentityDeps,
  tx: Tx,
  action: string,
  userId: string,
  ip: string | null,
  metadata: Record<string, unknown> = {},
  actor?: Actor,
) {
  const event = auditEvent({
    action,
    actor: actor ?? { user_id: userId, api_key: null },
    org_id: null,
    target_type: "user",
    target_id: userId,
    ip,
    metadata,
  });
  await tx.outboxEvent.create({ data: outboxRow(ns(deps), event) });
}

export function assertPasswordPolicy(deps: IdentityDeps, password: string, field = "password"): void {
  const problem = passwordProblem(password, deps.config.password);
  if (problem) throw errors.validation(problem, [{ path: field, message: problem }]);
}

/** Creates an account and signs it in. A taken email is the same generic 400 as any refusal. */
export async function register(deps: IdentityDeps, body: RegisterBody, client: ClientInfo): Promise<AuthOutcome> {
  assertPasswordPolicy(deps, body.password);
  const passwordHash = await deps.hasher.hash(body.password);
  const id = randomUUID();
  try {
    const out = await deps.db.$transaction(async (tx) => {
      const user = await tx.user.create({
        data: {
          id,
          email: body.email,
          displayName: body.display_name,
          passwordHash,
          isSystemAdmin: deps.config.admin.emails.includes(body.email),
          lastLoginAt: new Date(deps.now()),
        },
      });
      const tokens = await openSession(deps, tx, user, client);
      const verify = await issueUserToken(deps, tx, id, "verify_email");
      await audit(deps, tx, "user.registered", id, client.ip);
      return { user: userView(user), tokens, verify };
    });
    deps.relay.kick();
    deps.mailer.send({
      to: body.email,
      subject: "Confirm your BurnBox email address",
      text: `Confirm your address: ${deps.config.base_url}/api/v1/auth/verify-email/${out.verify}\n\nIf you did not sign up, ignore this mail.`,
    });
    return { user: out.user, tokens: out.tokens };
  } catch (err) {
    if (isUniqueViolation(err)) throw errors.validation("registration failed: check the details and try again");
    throw err;
  }
}

const invalidCredentials = () => errors.unauthenticated("invalid email or password");

function lockedError(until: Date, now: number): AppError {
  const seconds = Math.max(1, Math.ceil((until.getTime() - now) / 1000));
  return new AppError(ErrorCode.locked, "account temporarily locked after repeated failed logins", {
    headers: { "Retry-After": String(seconds) },
  });
}

/** Checks email and password, with lockout after repeated failures; returns the user row. */
export async function checkPassword(deps: IdentityDeps, email: string, password: string): Promise<UserRow> {
  const user = await deps.db.user.findUnique({ where: { email } });
  if (!user || !user.passwordHash) {
    await deps.hasher.verifyNobody(password);
    throw invalidCredentials();
  }
  const now = deps.now();
  if (user.lockedUntil && user.lockedUntil.getTime() > now) throw lockedError(user.lockedUntil, now);
  if (!(await deps.hasher.verify(user.passwordHash, password))) {
    const failed = await deps.db.user.update({ where: { id: user.id }, data: { failedLoginCount: { increment: 1 } } });
    if (failed.failedLoginCount >= deps.config.auth.lockout_threshold) {
      const until = new Date(now + parseDurationMs(deps.config.auth.lockout_duration));
      await deps.db.user.update({ where: { id: user.id }, data: { lockedUntil: until, failedLoginCount: 0 } });
      deps.logger.warn({ user_id: user.id }, "account locked after repeated failed logins");
    }
    throw invalidCredentials();
  }
  return user;
}

function sessionLimitError(pendingToken: string, sessions: SessionEntry[], limit: number): AppError {
  return new AppError(ErrorCode.session_limit, "session limit reached", { body: { pending_token: pendingToken, sessions, limit } });
}

type Admission =
  { kind: "in"; user: UserRow; tokens: IssuedTokens; evicted: string[] } | { kind: "limit"; sessions: SessionEntry[]; limit: number };

/**
 * Opens a session for a user under the session limit, inside one transaction holding the user's
 * lock. At the limit it answers "limit" (the caller issues a pending login), or, when `fallback`
 * says the pending-login store is down, revokes the oldest sessions to make room (spec 3.4).
 */
async function admit(
  deps: IdentityDeps,
  tx: Tx,
  userId: string,
  client: ClientInfo,
  opts: { fallback: boolean; action: string },
): Promise<Admission> {
  await lockUser(tx, userId);
  const user = await tx.user.findUniqueOrThrow({ where: { id: userId } });
  const limit = await sessionLimit(deps, tx, user);
  // count first: the list is only needed at the limit
  const count = await tx.session.count({ where: activeSessionWhere(deps, userId) });
  let evicted: string[] = [];
  if (count >= limit) {
    const active = await activeSessions(deps, tx, userId);
    if (!opts.fallback) return { kind: "limit", sessions: active.map(sessionEntry), limit };
    evicted = active.slice(0, active.length - limit + 1).map((s) => s.id);
    await tx.session.updateMany({
      where: { id: { in: evicted } },
      data: { revokedAt: new Date(deps.now()), revokedReason: "session_limit" },
    });
  }
  const updated = await tx.user.update({
    where: { id: userId },
    data: { failedLoginCount: 0, lockedUntil: null, lastLoginAt: new Date(deps.now()) },
  });
  const tokens = await openSession(deps, tx, updated, client);
  await audit(deps, tx, opts.action, userId, client.ip, evicted.length ? { revoked_sessions: evicted } : {});
  return { kind: "in", user: updated, tokens, evicted };
}

async function finish(deps: IdentityDeps, a: Extract<Admission, { kind: "in" }>): Promise<AuthOutcome> {
  deps.relay.kick();
  if (a.evicted.length) await revokeSessions(deps, a.evicted, "session_limit");
  return { user: userView(a.user), tokens: a.tokens };
}

/** Password login. At the session limit: 409 session_limit with a pending token (or, without Redis, the oldest session goes). */
export async function login(deps: IdentityDeps, body: LoginBody, client: ClientInfo): Promise<AuthOutcome> {
  const user = await checkPassword(deps, body.email, body.password);
  for (let fallback = false; ; fallback = true) {
    const a = await deps.db.$transaction((tx) => admit(deps, tx, user.id, client, { fallback, action: "user.login" }));
    if (a.kind === "in") return finish(deps, a);
    const pending = await createPendingLogin(deps, user.id);
    if (pending) throw sessionLimitError(pending, a.sessions, a.limit);
    // the pending-login store is down: go round again, revoking the oldest session instead
  }
}

/** Completes a pending login by revoking one of the user's sessions; 409 again if still at the limit (a race). */
export async function resolveLogin(
  deps: IdentityDeps,
  pendingToken: string,
  revokeSessionId: string,
  client: ClientInfo,
): Promise<AuthOutcome> {
  const userId = await readPendingLogin(deps, pendingToken);
  if (!userId) throw errors.unauthenticated("invalid or expired pending login");
  const out = await deps.db.$transaction(async (tx) => {
    await lockUser(tx, userId);
    const target = await tx.session.findFirst({
      where: { id: revokeSessionId, ...activeSessionWhere(deps, userId) },
    });
    if (!target) throw errors.validation("revoke_session_id must be one of the account's active sessions");
    await tx.session.update({
      where: { id: target.id },
      data: { revokedAt: new Date(deps.now()), revokedReason: "session_limit_resolve" },
    });
    const a = await admit(deps, tx, userId, client, { fallback: false, action: "user.login_resolved" });
    return { a, revoked: target.id };
  });
  await revokeSessions(deps, [out.revoked], "session_limit_resolve");
  await dropPendingLogin(deps, pendingToken);
  if (out.a.kind === "in") return finish(deps, out.a);
  const fresh = await createPendingLogin(deps, userId);
  if (!fresh) throw errors.unavailable("pending-login store unavailable; sign in again");
  throw sessionLimitError(fresh, out.a.sessions, out.a.limit);
}

export async function pendingSessions(deps: IdentityDeps, token: string): Promise<{ sessions: SessionEntry[]; limit: number }> {
  const userId = await readPendingLogin(deps, token);
  if (!userId) throw errors.unauthenticated("invalid or expired pending login");
  const user = await deps.db.user.findUniqueOrThrow({ where: { id: userId } });
  const [limit, active] = await Promise.all([sessionLimit(deps, deps.db, user), activeSessions(deps, deps.db, userId)]);
  return { sessions: active.map(sessionEntry), limit };
}

/** Every user, oldest first (system admins only; the gateway already refused anyone else and any API key). */
export async function adminListUsers(deps: IdentityDeps, actor: Actor, q: PaginationQuery): Promise<Page<User>> {
  if (!actor.is_system_admin || actor.api_key) throw errors.forbidden("system admin only");
  const [rows, total] = await Promise.all([
    deps.db.user.findMany({ orderBy: [{ createdAt: "asc" }, { id: "asc" }], ...pageWindow(q) }),
    deps.db.user.count(),
  ]);
  return toPage(rows.map(userView), total, q);
}

export async function getMe(deps: IdentityDeps, actor: Actor): Promise<User> {
  const user = await deps.db.user.findUnique({ where: { id: actor.user_id } });
  if (!user) throw errors.unauthenticated("user no longer exists");
  return userView(user);
}
