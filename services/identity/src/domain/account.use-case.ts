import { type Actor, type User } from "@burnbox/contracts";
import { errors } from "@burnbox/service-kit";
import { userView } from "../data/views";
import { publishKeyState } from "./apikey-cache";
import { assertPasswordPolicy, audit } from "./auth.use-case";
import type { IdentityDeps } from "./deps";
import { announceRevoked, revokeSessions } from "./sessions";
import { consumeUserToken, issueUserToken } from "./user-tokens";
import { sha256 } from "./tokens";

async function mustVerifyPassword(deps: IdentityDeps, userId: string, password: string) {
  const user = await deps.db.user.findUnique({ where: { id: userId } });
  if (!user) throw errors.unauthenticated("user no longer exists");
  if (!user.passwordHash || !(await deps.hasher.verify(user.passwordHash, password))) {
    throw errors.validation("password is incorrect", [{ path: "password", message: "incorrect" }]);
  }
  return user;
}

export async function updateMe(
  deps: IdentityDeps,
  actor: Actor,
  body: {
    display_name?: string | undefined;
    timezone?: string | undefined;
    date_format?: string | undefined;
    time_format?: string | undefined;
  },
  ip: string,
): Promise<User> {
  if (body.timezone) {
    try {
      new Intl.DateTimeFormat("en-US", { timeZone: body.timezone });
    } catch {
      throw errors.validation("timezone must be an IANA time zone such as Europe/Paris", [
        { path: "timezone", message: "unknown time zone" },
      ]);
    }
  }
  const user = await deps.db.$transaction(async (tx) => {
    const u = await tx.user.update({
      where: { id: actor.user_id },
      data: {
        ...(body.display_name !== undefined ? { displayName: body.display_name } : {}),
        ...(body.timezone !== undefined ? { timezone: body.timezone } : {}),
        ...(body.date_format !== undefined ? { dateFormat: body.date_format } : {}),
        ...(body.time_format !== undefined ? { timeFormat: body.time_format } : {}),
      },
    });
    await audit(deps, tx, "user.updated", actor.user_id, ip, { fields: Object.keys(body) });
    return u;
  });
  deps.relay.kick();
  return userView(user);
}

/** Changes the password; every other session of the user is revoked. */
export async function changePassword(deps: IdentityDeps, actor: Actor, current: string, next: string, ip: string): Promise<void> {
  const user = await mustVerifyPassword(deps, actor.user_id, current);
  assertPasswordPolicy(deps, next, "new_password");
  const hash = await deps.hasher.hash(next);
  const others = await deps.db.$transaction(async (tx) => {
    await tx.user.update({ where: { id: user.id }, data: { passwordHash: hash } });
    const sessions = await tx.session.findMany({
      where: { userId: user.id, revokedAt: null, NOT: { id: actor.session_id ?? undefined } },
      select: { id: true },
    });
    await audit(deps, tx, "user.password_changed", user.id, ip);
    return sessions.map((s) => s.id);
  });
  deps.relay.kick();
  await revokeSessions(deps, others, "password_changed");
}

/** Deletes one's own account after re-checking the password; sessions and keys stop working at once. */
export async function deleteMe(deps: IdentityDeps, actor: Actor, password: string, ip: string): Promise<void> {
  await mustVerifyPassword(deps, actor.user_id, password);
  await deleteUser(deps, actor.user_id, ip, actor, "user.deleted");
}

export async function deleteUser(deps: IdentityDeps, userId: string, ip: string, actor: Actor, action: string): Promise<void> {
  const { sessions, keys } = await deps.db.$transaction(async (tx) => {
    const sessions = await tx.session.findMany({ where: { userId, revokedAt: null }, select: { id: true } });
    const keys = await tx.apiKey.findMany({ where: { createdBy: userId }, select: { keyHash: true } });
    await audit(deps, tx, action, userId, ip, {}, actor);
    await tx.user.delete({ where: { id: userId } });
    return { sessions: sessions.map((s) => s.id), keys: keys.map((k) => k.keyHash) };
  });
  deps.relay.kick();
  await announceRevoked(deps, sessions);
  await publishKeyState(
    deps,
    keys.map((hash) => ({ hash, state: null })),
  ).catch((err: unknown) => deps.logger.warn({ err }, "key cache not cleared"));
}

/** Always answers the same, whether or not the account exists; mails a one-hour reset link when it does. */
export async function forgotPassword(deps: IdentityDeps, email: string, ip: string): Promise<void> {
  const user = await deps.db.user.findUnique({ where: { email } });
  if (!user) return;
  const token = await deps.db.$transaction(async (tx) => {
    const t = await issueUserToken(deps, tx, user.id, "reset_password");
    await audit(deps, tx, "user.password_reset_requested", user.id, ip);
    return t;
  });
  deps.relay.kick();
  deps.mailer.send({
    to: user.email,
    subject: "Reset your BurnBox password",
    text: `Someone asked to reset the password of this account. To choose a new one, open:\n\n${deps.config.base_url}/reset-password?token=${token}\n\nThe link works once, for one hour. If it was not you, ignore this mail.`,
  });
}

/** Sets a new password from a reset link; every session is revoked and the lockout cleared. */
export async function resetPassword(deps: IdentityDeps, token: string, next: string, ip: string): Promise<void> {
  assertPasswordPolicy(deps, next, "new_password");
  const hash = await deps.hasher.hash(next);
  const sessions = await deps.db.$transaction(async (tx) => {
    const userId = await consumeUserToken(deps, tx, token, "reset_password");
    await tx.user.update({ where: { id: userId }, data: { passwordHash: hash, failedLoginCount: 0, lockedUntil: null } });
    const active = await tx.session.findMany({ where: { userId, revokedAt: null }, select: { id: true } });
    await audit(deps, tx, "user.password_reset", userId, ip);
    return active.map((s) => s.id);
  });
  deps.relay.kick();
  await revokeSessions(deps, sessions, "password_reset");
}

export async function verifyEmail(deps: IdentityDeps, token: string): Promise<void> {
  await deps.db.$transaction(async (tx) => {
    const userId = await consumeUserToken(deps, tx, token, "verify_email");
    await tx.user.update({ where: { id: userId }, data: { emailVerified: true } });
    await audit(deps, tx, "user.email_verified", userId, null);
  });
  deps.relay.kick();
}

/** Revokes the session a refresh token belongs to; unknown tokens are fine (logout is idempotent). */
export async function logout(deps: IdentityDeps, refreshToken: string | undefined): Promise<void> {
  if (!refreshToken) return;
  const row = await deps.db.refreshToken.findUnique({
    where: { tokenHash: sha256(refreshToken) },
    select: { sessionId: true, session: { select: { userId: true, revokedAt: true } } },
  });
  if (!row || row.session.revokedAt) return;
  await revokeSessions(deps, [row.sessionId], "logout");
  await deps.db.$transaction((tx) => audit(deps, tx, "user.logout", row.session.userId, null, { session_id: row.sessionId }));
  deps.relay.kick();
}

export async function datetimeSettings(deps: IdentityDeps, actor: Actor) {
  const user = await deps.db.user.findUnique({ where: { id: actor.user_id } });
  const d = deps.config.defaults;
  return {
    timezone: user?.timezone ?? d.timezone,
    date_format: user?.dateFormat ?? d.date_format,
    time_format: user?.timeFormat ?? d.time_format,
  };
}

export function ssoStatus(deps: IdentityDeps) {
  const p = deps.config.password;
  return {
    enabled: deps.config.sso.providers.length > 0,
    providers: deps.config.sso.providers,
    enforce_sso: deps.config.sso.enforce,
    password_policy: {
      min_length: p.min_length,
      require_uppercase: p.require_uppercase,
      require_lowercase: p.require_lowercase,
      require_digit: p.require_digit,
      require_symbol: p.require_symbol,
    },
  };
}
