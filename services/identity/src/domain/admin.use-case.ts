import { type Actor, type User } from "@burnbox/contracts";
import { errors } from "@burnbox/service-kit";
import { userView } from "../data/views";
import { deleteUser } from "./account.use-case";
import { audit } from "./auth.use-case";
import type { IdentityDeps } from "./deps";
import { PLATFORM_MAX_SESSIONS } from "./session-limit";
import { revokeSessions } from "./sessions";

function mustBeAdmin(actor: Actor): void {
  if (!actor.is_system_admin || actor.api_key) throw errors.forbidden("system admin required");
}

async function mustExist(deps: IdentityDeps, userId: string) {
  const user = await deps.db.user.findUnique({ where: { id: userId } });
  if (!user) throw errors.notFound("user");
  return user;
}

async function activeSessionIds(deps: IdentityDeps, userId: string): Promise<string[]> {
  const rows = await deps.db.session.findMany({ where: { userId, revokedAt: null }, select: { id: true } });
  return rows.map((r) => r.id);
}

export async function adminUpdateUser(
  deps: IdentityDeps,
  actor: Actor,
  userId: string,
  body: {
    display_name?: string | undefined;
    is_system_admin?: boolean | undefined;
    email_verified?: boolean | undefined;
    max_sessions?: number | null | undefined;
  },
  ip: string,
): Promise<User> {
  mustBeAdmin(actor);
  await mustExist(deps, userId);
  if (body.is_system_admin === false && userId === actor.user_id) throw errors.validation("you cannot remove your own system-admin rights");
  const user = await deps.db.$transaction(async (tx) => {
    const u = await tx.user.update({
      where: { id: userId },
      data: {
        ...(body.display_name !== undefined ? { displayName: body.display_name } : {}),
        ...(body.is_system_admin !== undefined ? { isSystemAdmin: body.is_system_admin } : {}),
        ...(body.email_verified !== undefined ? { emailVerified: body.email_verified } : {}),
        ...(body.max_sessions !== undefined ? { maxSessions: body.max_sessions } : {}),
      },
    });
    await audit(deps, tx, "admin.user_updated", userId, ip, { fields: Object.keys(body) }, actor);
    return u;
  });
  deps.relay.kick();
  // a change of admin rights must not live on in access tokens already issued
  if (body.is_system_admin !== undefined) await revokeSessions(deps, await activeSessionIds(deps, userId), "admin_rights_changed");
  return userView(user);
}

export async function adminDeleteUser(deps: IdentityDeps, actor: Actor, userId: string, ip: string): Promise<void> {
  mustBeAdmin(actor);
  await mustExist(deps, userId);
  if (userId === actor.user_id) throw errors.validation("use DELETE /auth/me to delete your own account");
  await deleteUser(deps, userId, ip, actor, "admin.user_deleted");
}

export async function adminRevokeSessions(deps: IdentityDeps, actor: Actor, userId: string, ip: string): Promise<void> {
  mustBeAdmin(actor);
  await mustExist(deps, userId);
  await revokeSessions(deps, await activeSessionIds(deps, userId), "revoked_by_admin");
  await deps.db.$transaction((tx) => audit(deps, tx, "admin.user_sessions_revoked", userId, ip, {}, actor));
  deps.relay.kick();
}

/** Moves a user between password and SSO sign-in; their sessions end so the new rule applies at once. */
export async function adminMigrateAuth(
  deps: IdentityDeps,
  actor: Actor,
  userId: string,
  body: { to: "password" | "sso"; provider?: string | undefined },
  ip: string,
): Promise<User> {
  mustBeAdmin(actor);
  await mustExist(deps, userId);
  if (body.to === "sso" && !body.provider) throw errors.validation("provider is required when migrating to sso");
  if (body.to === "sso" && deps.config.sso.providers.length > 0 && !deps.config.sso.providers.includes(body.provider!)) {
    throw errors.validation(`unknown SSO provider; configured: ${deps.config.sso.providers.join(", ")}`);
  }
  const user = await deps.db.$transaction(async (tx) => {
    const u = await tx.user.update({
      where: { id: userId },
      // to sso: the password stops working; to password: the user sets one through the reset flow
      data: body.to === "sso" ? { ssoProvider: body.provider!, passwordHash: null } : { ssoProvider: null },
    });
    await audit(deps, tx, "admin.user_auth_migrated", userId, ip, { to: body.to, provider: body.provider ?? null }, actor);
    return u;
  });
  deps.relay.kick();
  await revokeSessions(deps, await activeSessionIds(deps, userId), "auth_migrated");
  return userView(user);
}

export async function getPlatform(deps: IdentityDeps, actor: Actor): Promise<{ max_sessions_per_user: number }> {
  mustBeAdmin(actor);
  const row = await deps.db.platformSetting.findUnique({ where: { key: PLATFORM_MAX_SESSIONS } });
  return { max_sessions_per_user: typeof row?.value === "number" ? row.value : deps.config.defaults.max_sessions_per_user };
}

export async function updatePlatform(deps: IdentityDeps, actor: Actor, body: { max_sessions_per_user?: number | undefined }, ip: string) {
  mustBeAdmin(actor);
  if (body.max_sessions_per_user !== undefined) {
    const value = body.max_sessions_per_user;
    await deps.db.$transaction(async (tx) => {
      await tx.platformSetting.upsert({
        where: { key: PLATFORM_MAX_SESSIONS },
        create: { key: PLATFORM_MAX_SESSIONS, value },
        update: { value },
      });
      await audit(deps, tx, "admin.platform_updated", actor.user_id, ip, { max_sessions_per_user: value }, actor);
    });
    deps.relay.kick();
  }
  return getPlatform(deps, actor);
}
