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
  type User,
} from "@burnbox/contracts";
import { AppError, auditEvent, errors, outboxRow } from "@burnbox/service-kit";
import { isUniqueViolation, type Tx } from "../data/prisma";
import { userView } from "../data/views";
import type { ClientInfo, IdentityDeps } from "./deps";
import { passwordProblem } from "./passwords";
import { openSession, revokeSessions, type IssuedTokens } from "./sessions";
import { enforceSessionLimit } from "./session-limit";

export interface AuthOutcome {
  user: User;
  tokens: IssuedTokens;
}

const ns = (deps: IdentityDeps) => deps.config.nats.namespace;

async function audit(deps: IdentityDeps, tx: Tx, action: string, userId: string, ip: string, metadata: Record<string, unknown> = {}) {
  const event = auditEvent({
    action,
    actor: { user_id: userId, api_key: null },
    org_id: null,
    target_type: "user",
    target_id: userId,
    ip,
    metadata,
  });
  await tx.outboxEvent.create({ data: outboxRow(ns(deps), event) });
}

/** Creates an account and signs it in. A taken email is the same generic 400 as any refusal. */
export async function register(deps: IdentityDeps, body: RegisterBody, client: ClientInfo): Promise<AuthOutcome> {
  const problem = passwordProblem(body.password, deps.config.password);
  if (problem) throw errors.validation(problem, [{ path: "password", message: problem }]);
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
      await audit(deps, tx, "user.registered", id, client.ip);
      return { user: userView(user), tokens };
    });
    deps.relay.kick();
    return out;
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
export async function checkPassword(deps: IdentityDeps, email: string, password: string) {
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

/** Password login. At the session limit this throws 409 session_limit (or, without Redis, revokes the oldest). */
export async function login(deps: IdentityDeps, body: LoginBody, client: ClientInfo): Promise<AuthOutcome> {
  const user = await checkPassword(deps, body.email, body.password);
  const out = await deps.db.$transaction(async (tx) => {
    const evicted = await enforceSessionLimit(deps, tx, user);
    const updated = await tx.user.update({
      where: { id: user.id },
      data: { failedLoginCount: 0, lockedUntil: null, lastLoginAt: new Date(deps.now()) },
    });
    const tokens = await openSession(deps, tx, updated, client);
    await audit(deps, tx, "user.login", user.id, client.ip, evicted.length ? { revoked_sessions: evicted } : {});
    return { user: userView(updated), tokens, evicted };
  });
  deps.relay.kick();
  if (out.evicted.length) await revokeSessions(deps, out.evicted, "session_limit");
  return { user: out.user, tokens: out.tokens };
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
