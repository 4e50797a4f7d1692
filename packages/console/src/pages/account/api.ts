// The account area's server state: the query and mutation hooks its pages call (never bb.api directly).
import { apiQuery, apiQueryWith, apiMutation, unwrap, useApi } from "../../api/query";
import { accountKeys } from "../../api/keys";
import type { ListParams } from "../../components";

/** `DELETE /auth/me` */
export const useDeleteAccount = apiMutation((bb, body: { password: string }) => bb.api.DELETE("/auth/me", { body }));

/** `PUT /auth/me/password` */
export const useChangePassword = apiMutation((bb, body: { current_password: string; new_password: string }) =>
  bb.api.PUT("/auth/me/password", { body }),
);

export type UpdateMe = { display_name: string; timezone?: string; date_format?: string; time_format?: "12h" | "24h" };

/** `PATCH /auth/me` */
export const useUpdateProfile = apiMutation((bb, body: UpdateMe) => bb.api.PATCH("/auth/me", { body }));

/** `GET /auth/sessions` */
export const useSessions = apiQueryWith(
  (args: { list: ListParams<never>; listPerPage: number }) => accountKeys.sessions(args.list.page),
  (bb, signal, args) => bb.api.GET("/auth/sessions", { params: { query: { page: args.list.page, per_page: args.listPerPage } }, signal }),
);

/** `DELETE /auth/sessions/{id}` */
export const useRevokeSession = apiMutation((bb, id: string) => bb.api.DELETE("/auth/sessions/{id}", { params: { path: { id } } }));

/** `DELETE /auth/sessions` */
export const useRevokeOtherSessions = apiMutation((bb, _: void) => bb.api.DELETE("/auth/sessions"));

/** `GET /auth/me/sso` */
export const useSsoIdentities = apiQuery(accountKeys.ssoIdentities(), (b, signal) => b.api.GET("/auth/me/sso", { signal }));

/** `DELETE /auth/me/sso/{provider}` */
export const useUnlinkSsoIdentity = apiMutation((b, provider: string) =>
  b.api.DELETE("/auth/me/sso/{provider}", { params: { path: { provider } } }),
);

/** The address that links another SSO identity to this account: a one-time ticket (`POST /ws/ticket`) proves who asks. */
export function useSsoLinkUrl(): (provider: string) => Promise<string> {
  const bb = useApi();
  return async (provider) => {
    const { ticket } = await unwrap(bb.api.POST("/ws/ticket"));
    return `${bb.baseUrl}/auth/sso/${encodeURIComponent(provider)}?intent=link&ticket=${encodeURIComponent(ticket)}`;
  };
}
