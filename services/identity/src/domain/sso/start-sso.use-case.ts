import { errors } from "@burnbox/service-kit/runtime";
import type { IdentityDeps, PublicCtx } from "../deps";
import { opaqueToken, sha256 } from "../tokens";
import { browserSessionUser } from "./own-session";
import { errorRedirect, flowValueOr, redirectUriOf, SSO_STATE_TTL_MS, type StatePayload } from "./sso-flow";
import { redeemWsTicket } from "./ws-ticket";

/**
 * `GET /auth/sso/:provider`: the authorization URL (code flow, PKCE S256); the verifier, state and
 * nonce are kept server-side for 10 minutes with the hash of the browser's flow cookie (`flow`: the
 * one the request brought, else a fresh one), which the handler sets. Linking names the user
 * through a WebSocket ticket, and must start in a browser signed in as that user (`session`, its
 * refresh cookie): a ticket sent to someone else links nothing (to `/login#error=link_session_required`).
 */
export async function startSso(
  deps: IdentityDeps,
  ctx: PublicCtx,
  input: {
    provider: string;
    intent?: "login" | "link" | undefined;
    ticket?: string | undefined;
    flow?: string | undefined;
    session?: string | undefined;
  },
): Promise<{ location: string; flow: string | null }> {
  const provider = await deps.data.repos.ssoProviders.byName(input.provider);
  if (!provider?.enabled) throw errors.notFound("SSO provider");
  let userId: string | null = null;
  if (input.intent === "link") {
    if (!input.ticket) throw errors.validation("ticket is required to link a provider");
    userId = await redeemWsTicket(deps, input.ticket);
    if (!userId) throw errors.unauthenticated("invalid or expired ticket");
    if ((await browserSessionUser(deps, input.session)) !== userId) {
      deps.logger.warn(
        { provider: provider.name, user_id: userId, ip: ctx.ip },
        "SSO link started outside the linking user's browser; refused",
      );
      return { location: errorRedirect(deps, "link_session_required"), flow: null };
    }
  }
  const { state, nonce, codeVerifier, codeChallenge } = await deps.rp.newLoginChecks();
  let url: URL;
  try {
    url = await deps.rp.authorizationUrl(provider, {
      redirectUri: redirectUriOf(deps, provider.name),
      state,
      nonce,
      codeChallenge,
    });
  } catch (err) {
    deps.logger.warn({ err: { message: (err as Error).message }, provider: provider.name }, "SSO provider discovery failed");
    throw errors.unavailable("SSO provider unavailable");
  }
  const flow = flowValueOr(input.flow, opaqueToken);
  const payload: StatePayload = {
    provider_id: provider.id,
    code_verifier: codeVerifier,
    nonce,
    intent: input.intent ?? "login",
    user_id: userId,
    flow: sha256(flow),
  };
  await deps.data.repos.ssoGrants.put("state", sha256(state), payload, new Date(deps.now() + SSO_STATE_TTL_MS));
  return { location: url.href, flow };
}
