import { accountRoutes } from "./account.routes";
import { adminUsersRoutes } from "./admin-users.routes";
import { apiKeyRoutes } from "./api-keys.routes";
import { authRoutes } from "./auth.routes";
import { platformRoutes } from "./platform.routes";
import { sessionsRoutes } from "./sessions.routes";
import { ssoAdminRoutes } from "./sso-admin.routes";
import { ssoIdentityRoutes, ssoLoginRoutes } from "./sso.routes";

export * from "./account.schemas";
export * from "./auth.schemas";
export * from "./sessions.schemas";
export * from "./admin-users.schemas";
export * from "./platform.schemas";
export * from "./api-keys.schemas";
export * from "./sso-admin.schemas";
export * from "./sso.schemas";

export const identityRoutes = [
  ...authRoutes,
  ...accountRoutes,
  ...sessionsRoutes,
  ...adminUsersRoutes,
  ...platformRoutes,
  ...ssoLoginRoutes,
  ...ssoIdentityRoutes,
  ...ssoAdminRoutes,
] as const;

/** Everything the identity service serves, API keys included: what it binds handlers to. */
export const identityServiceRoutes = [...identityRoutes, ...apiKeyRoutes] as const;
export * from "./account.routes";
export * from "./admin-users.routes";
export * from "./api-keys.routes";
export * from "./auth.routes";
export * from "./platform.routes";
export * from "./sessions.routes";
export * from "./sso-admin.routes";
export * from "./sso.routes";
export * from "./account.rpc";
export * from "./api-keys.rpc";
export * from "./auth.events";
export * from "./invite-mail.rpc";
export * from "./platform.events";
export * from "./platform.rpc";
export * from "./sessions.rpc";
export * from "./setup.rpc";
export * from "./sso.events";
