import type { ssoIdentityRoutes, ssoLoginRoutes } from "@burnbox/contracts";
import type { Handlers } from "@burnbox/service-kit/http";
import type { IdentityDeps } from "../domain/deps";
import { completeSso } from "../domain/sso/complete-sso.use-case";
import { exchangeSsoCode } from "../domain/sso/exchange-sso-code.use-case";
import { listMySsoIdentities } from "../domain/sso/list-my-sso-identities.use-case";
import { startSso } from "../domain/sso/start-sso.use-case";
import { unlinkSsoIdentity } from "../domain/sso/unlink-sso-identity.use-case";
import { SSO_FLOW_TTL_MS } from "../domain/sso/sso-flow";
import { refreshCookieOf, setSsoFlowCookie, signIn, ssoFlowCookieOf } from "./cookies";

/** The query string exactly as the provider sent it (the code grant checks it whole, `iss` included). */
const rawQueryOf = (originalUrl: string): string => {
  const i = originalUrl.indexOf("?");
  return i < 0 ? "" : originalUrl.slice(i + 1);
};

export const ssoHandlers = (deps: IdentityDeps): Handlers<typeof ssoLoginRoutes> & Handlers<typeof ssoIdentityRoutes> => ({
  ssoStart: async ({ ctx, params, query, http }) => {
    const started = await startSso(deps, ctx, {
      provider: params.provider,
      intent: query.intent,
      ticket: query.ticket,
      flow: ssoFlowCookieOf(http.req),
      session: refreshCookieOf(http.req),
    });
    if (started.flow) setSsoFlowCookie(http.res, deps.config, started.flow, SSO_FLOW_TTL_MS);
    http.res.redirect(302, started.location);
  },
  ssoCallback: async ({ ctx, params, query, http }) => {
    const to = await completeSso(deps, ctx, {
      provider: params.provider,
      state: query.state,
      error: query.error,
      rawQuery: rawQueryOf(http.req.originalUrl),
      flow: ssoFlowCookieOf(http.req),
      session: refreshCookieOf(http.req),
    });
    http.res.redirect(302, to);
  },
  ssoExchange: ({ ctx, body, http }) =>
    signIn(deps.config, http, body.use_cookie, () => exchangeSsoCode(deps, ctx, { code: body.code, flow: ssoFlowCookieOf(http.req) })),
  listMySsoIdentities: ({ ctx, query }) => listMySsoIdentities(deps, ctx, query),
  unlinkMySsoIdentity: ({ ctx, params }) => unlinkSsoIdentity(deps, ctx, { provider: params.provider }),
});
