import type { User } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import { changeUser } from "../account/change-user";
import type { IdentityDeps } from "../deps";
import { revokeSessions } from "../sessions/revocation";
import { requireSystemAdmin, requireUser } from "./system-admin";

/** Moves a user between password and SSO sign-in; their sessions end so the new rule applies at once. */
export async function migrateUserAuth(
  deps: IdentityDeps,
  ctx: RequestCtx,
  input: { userId: string; to: "password" | "sso"; provider?: string | undefined },
): Promise<User> {
  requireSystemAdmin(ctx);
  const { userId, to, provider } = input;
  await requireUser(deps, userId);
  if (to === "sso" && !provider) throw errors.validation("provider is required when migrating to sso");
  // once providers are configured, the name must be one of them
  const ssoProviders = deps.data.repos.ssoProviders;
  if (to === "sso" && (await ssoProviders.count()) > 0 && !(await ssoProviders.byName(provider!))) {
    throw errors.validation("unknown SSO provider");
  }
  const user = await changeUser(deps, ctx, {
    userId,
    // to sso: the password stops working; to password: the user sets one through the reset flow
    changes: to === "sso" ? { ssoProvider: provider!, passwordHash: null } : { ssoProvider: null },
    action: "admin.user_auth_migrated",
    metadata: { to, provider: provider ?? null },
  });
  await revokeSessions(deps, userId, await deps.data.repos.sessions.unrevokedIds(userId), "auth_migrated");
  return user;
}
