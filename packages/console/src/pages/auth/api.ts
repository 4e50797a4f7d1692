// The auth area's server state: sign-in, registration, password reset, email verification, invites.
import type { components } from "@burnbox/sdk";
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
