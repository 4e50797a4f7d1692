// The auth area's server state: sign-in, registration, password reset, email verification, invites.
import { useMemo } from "react";
import type { components, paths } from "@burnbox/sdk";
import { unwrap, useApi } from "../../api/query";
import { apiQueryWith, apiMutationWith } from "../../api/query";

export type SessionEntry = components["schemas"]["SessionEntry"];
export type SessionLimitConflict = components["schemas"]["SessionLimitConflict"];

/** `GET /invites/{token}/preview` */
export const useInvitePreview = apiQueryWith(
  (args: { token: string }) => ["public", "invite", args.token],
  (bb, signal, args) => bb.api.GET("/invites/{token}/preview", { params: { path: { token: args.token } }, signal }),
);

/** `POST /invites/{token}/accept` */
export const useAcceptInvite = apiMutationWith((bb, _: void, args: { token: string }) =>
  bb.api.POST("/invites/{token}/accept", { params: { path: { token: args.token } } }),
);

/** `GET /auth/verify-email/{token}` */
export const useVerifyEmail = apiQueryWith(
  (args: { token: string }) => ["public", "verify-email", args.token],
  (bb, signal, args) => bb.api.GET("/auth/verify-email/{token}", { params: { path: { token: args.token } } }),
);

type Body<P extends keyof paths> = paths[P] extends { post: { requestBody?: { content: { "application/json": infer B } } } } ? B : never;

/**
 * The sign-in calls, each answering the API's body or throwing its BurnBoxError; the forms keep
 * their own busy and error state (a session limit on sign-in is a 409 they turn into a choice).
 */
export function useAuthCalls() {
  const bb = useApi();
  return useMemo(
    () => ({
      login: (email: string, password: string) => unwrap(bb.api.POST("/auth/login", { body: { email, password, use_cookie: true } })),
      /** A sign-in over the session limit: which session to end (`revoke_session_id`), with the pending token of the 409. */
      resolveLogin: (body: Body<"/auth/login/resolve">) => unwrap(bb.api.POST("/auth/login/resolve", { body })),
      /** The code an SSO provider's round trip left in the fragment, for a session. */
      exchangeSso: (code: string) => unwrap(bb.api.POST("/auth/sso/exchange", { body: { code, use_cookie: true } })),
      /** The sessions an SSO sign-in over the limit may end. */
      pendingSessions: (token: string) => unwrap(bb.api.GET("/auth/login/pending-sessions", { params: { query: { token } } })),
      register: (body: Body<"/auth/register">) => unwrap(bb.api.POST("/auth/register", { body })),
      forgotPassword: (email: string) => unwrap(bb.api.POST("/auth/forgot-password", { body: { email } })),
      resetPassword: (token: string, newPassword: string) =>
        unwrap(bb.api.POST("/auth/reset-password", { body: { token, new_password: newPassword } })),
    }),
    [bb],
  );
}

/** Where the browser goes to sign in with an SSO provider (`GET /auth/sso/:provider`, a full-page visit). */
export function useSsoStartUrl(): (provider: string) => string {
  const bb = useApi();
  return (provider) => `${bb.baseUrl}/auth/sso/${encodeURIComponent(provider)}`;
}
