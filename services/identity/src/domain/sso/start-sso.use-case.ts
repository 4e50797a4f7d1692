import { errors } from "@burnbox/service-kit/runtime";
import type { IdentityDeps, PublicCtx } from "../deps";
import { sha256 } from "../tokens";
import { redirectUriOf, SSO_STATE_TTL_MS, type StatePayload } from "./sso-flow";
import { redeemWsTicket } from "./ws-ticket";

/**
 * `GET /auth/sso/:provider`: the authorization URL (code flow, PKCE S256); the verifier, state and
 * nonce are kept server-side for 10 minutes. Linking names the user through a WebSocket ticket.
 */
export async function startSso(
  deps: IdentityDeps,
  _ctx: PublicCtx,
  input: { provider: string; intent?: "login" | "link" | undefined; ticket?: string | undefined },
): Promise<string> {
  const provider = await deps.data.repos.ssoProviders.byName(input.provider);
  if (!provider?.enabled) throw errors.notFound("SSO provider");
  let userId: string | null = null;
  if (input.intent === "link") {
    if (!input.ticket) throw errors.validation("ticket is required to link a provider");
    userId = await redeemWsTicket(deps, input.ticket);
    if (!userId) throw errors.unauthenticated("invalid or expired ticket");
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
  const payload: StatePayload = {
    provider_id: provider.id,
    code_verifier: codeVerifier,
    nonce,
    intent: input.intent ?? "login",
    user_id: userId,
  };
  await deps.data.repos.ssoGrants.put("state", sha256(state), payload, new Date(deps.now() + SSO_STATE_TTL_MS));
  return url.href;
}
