import { ErrorCode, parseDurationMs } from "@burnbox/contracts";
import { AppError, errors } from "@burnbox/service-kit/runtime";
import type { IdentityDeps } from "../deps";
import { passwordProblem } from "../passwords";

const invalidCredentials = () => errors.unauthenticated("invalid email or password");

/** 423 with Retry-After in whole seconds (at least 1) until the lock lifts. */
export function lockedError(until: Date, now: number): AppError {
  const seconds = Math.max(1, Math.ceil((until.getTime() - now) / 1000));
  return new AppError(ErrorCode.locked, "account temporarily locked after repeated failed logins", {
    headers: { "Retry-After": String(seconds) },
  });
}

/** The 400 of a password that breaks the configured policy, naming the request field. */
export function assertPasswordPolicy(deps: IdentityDeps, password: string, field = "password"): void {
  const problem = passwordProblem(password, deps.config.password);
  if (problem) throw errors.validation(problem, [{ path: field, message: problem }]);
}

/**
 * Checks email and password, locking the account after repeated failures; returns the user id.
 * An unknown email costs the same time and gets the same answer as a wrong password.
 */
export async function checkPassword(deps: IdentityDeps, email: string, password: string): Promise<string> {
  const users = deps.data.repos.users;
  const user = await users.locateByEmail(email);
  if (!user || !user.passwordHash) {
    await deps.hasher.verifyNobody(password);
    throw invalidCredentials();
  }
  const now = deps.now();
  if (user.lockedUntil && user.lockedUntil.getTime() > now) throw lockedError(user.lockedUntil, now);
  if (!(await deps.hasher.verify(user.passwordHash, password))) {
    const failures = await users.recordFailedLogin(user.userId);
    if (failures >= deps.config.auth.lockout_threshold) {
      await users.lock(user.userId, new Date(now + parseDurationMs(deps.config.auth.lockout_duration)));
      deps.logger.warn({ user_id: user.userId }, "account locked after repeated failed logins");
    }
    throw invalidCredentials();
  }
  return user.userId;
}

/** Re-checks the signed-in user's password before a sensitive change (400 when wrong). */
export async function verifyOwnPassword(deps: IdentityDeps, userId: string, password: string): Promise<void> {
  const user = await deps.data.repos.users.passwordHash(userId);
  if (!user) throw errors.unauthenticated("user no longer exists");
  if (!user.passwordHash || !(await deps.hasher.verify(user.passwordHash, password))) {
    throw errors.validation("password is incorrect", [{ path: "password", message: "incorrect" }]);
  }
}
