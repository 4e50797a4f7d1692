import type { authRoutes } from "@burnbox/contracts";
import type { Handlers } from "@burnbox/service-kit/http";
import { getSsoStatus } from "../domain/auth/get-sso-status.use-case";
import { listPendingSessions } from "../domain/auth/list-pending-sessions.use-case";
import { logIn } from "../domain/auth/log-in.use-case";
import { logOut } from "../domain/auth/log-out.use-case";
import { refreshSession } from "../domain/auth/refresh-session.use-case";
import { registerUser } from "../domain/auth/register-user.use-case";
import { requestPasswordReset } from "../domain/auth/request-password-reset.use-case";
import { resetPassword } from "../domain/auth/reset-password.use-case";
import { resolveLogin } from "../domain/auth/resolve-login.use-case";
import { verifyEmail } from "../domain/auth/verify-email.use-case";
import type { IdentityDeps } from "../domain/deps";
import { requirePendingBrowser } from "../domain/sso/pending-binding";
import { logoutWith, refreshWith, signIn, ssoFlowCookieOf } from "./cookies";

export const authHandlers = (deps: IdentityDeps): Handlers<typeof authRoutes> => ({
  register: ({ ctx, body, http }) => signIn(deps.config, http, body.use_cookie, () => registerUser(deps, ctx, body)),
  login: ({ ctx, body, http }) => signIn(deps.config, http, body.use_cookie, () => logIn(deps, ctx, body)),
  // a pending login an SSO callback opened resolves only in the browser that started that login
  loginResolve: ({ ctx, body, http }) =>
    signIn(deps.config, http, body.use_cookie, async () => {
      await requirePendingBrowser(deps, body.pending_token, ssoFlowCookieOf(http.req));
      return resolveLogin(deps, ctx, body);
    }),
  refresh: ({ ctx, body, http }) => refreshWith(deps.config, http, body, (token) => refreshSession(deps, ctx, { refresh_token: token })),
  logout: ({ ctx, body, http }) => logoutWith(deps.config, http, body, (token) => logOut(deps, ctx, { refresh_token: token })),
  pendingSessions: async ({ ctx, query, http }) => {
    await requirePendingBrowser(deps, query.token, ssoFlowCookieOf(http.req));
    return listPendingSessions(deps, ctx, query);
  },
  forgotPassword: ({ ctx, body }) => requestPasswordReset(deps, ctx, body),
  resetPassword: ({ ctx, body }) => resetPassword(deps, ctx, body),
  verifyEmail: ({ ctx, params }) => verifyEmail(deps, ctx, params),
  ssoStatus: ({ ctx }) => getSsoStatus(deps, ctx),
});
