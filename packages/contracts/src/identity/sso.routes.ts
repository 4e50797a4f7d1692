import { PaginationQuery, paginated } from "../pagination";
import { MessageBody, errorResponses } from "../shared/common.schemas";
import { defineRoutes } from "../routes/route";
import { AuthResult } from "./auth.schemas";
import { SsoCallbackQuery, SsoExchangeBody, SsoIdentity, SsoLoginParams, SsoStartQuery } from "./sso.schemas";

/** Signing in through an SSO provider. */
export const ssoLoginRoutes = defineRoutes({ service: "identity", tag: "SSO" }, [
  {
    operationId: "ssoStart",
    method: "get",
    path: "/auth/sso/{provider}",
    auth: "public",
    summary: "Redirect (302) to the provider: authorization code with PKCE; intent=link&ticket= links to the ticket's user",
    request: { params: SsoLoginParams, query: SsoStartQuery },
    responses: { 302: { description: "To the provider" }, 400: errorResponses[400], 404: errorResponses[404] },
  },
  {
    operationId: "ssoCallback",
    method: "get",
    path: "/auth/sso/{provider}/callback",
    auth: "public",
    summary: "The provider's redirect back: 302 to the frontend with sso_code, #session_conflict=... or #error=...",
    request: { params: SsoLoginParams, query: SsoCallbackQuery },
    responses: { 302: { description: "To the frontend" }, 400: errorResponses[400] },
  },
  {
    operationId: "ssoExchange",
    method: "post",
    path: "/auth/sso/exchange",
    auth: "public",
    summary: "Exchange the one-time sso_code (60 s) for the user and tokens",
    request: { body: SsoExchangeBody },
    responses: { 200: { description: "Signed in", schema: AuthResult }, 401: errorResponses[401] },
  },
] as const);

/** The caller's linked SSO identities. */
export const ssoIdentityRoutes = defineRoutes({ service: "identity", tag: "SSO identities" }, [
  {
    operationId: "listMySsoIdentities",
    method: "get",
    path: "/auth/me/sso",
    auth: "user_only",
    summary: "The caller's linked SSO identities",
    request: { query: PaginationQuery },
    responses: { 200: { description: "Identities", schema: paginated(SsoIdentity, "SsoIdentityPage") }, 403: errorResponses[403] },
  },
  {
    operationId: "unlinkMySsoIdentity",
    method: "delete",
    path: "/auth/me/sso/{provider}",
    auth: "user_only",
    summary: "Unlink a provider (409 when it is the last way to sign in)",
    request: { params: SsoLoginParams },
    responses: {
      200: { description: "Unlinked", schema: MessageBody },
      403: errorResponses[403],
      404: errorResponses[404],
      409: { description: "The last way to sign in" },
    },
  },
] as const);
