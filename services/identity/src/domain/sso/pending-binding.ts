import { errors } from "@burnbox/service-kit/runtime";
import { PENDING_LOGIN_TTL_MS } from "../auth/pending-login";
import type { IdentityDeps } from "../deps";
import { sha256 } from "../tokens";

/**
 * A pending login an SSO callback opened (the session-conflict fragment) belongs to the browser
 * that started the login: the hash of its flow cookie is kept beside the pending token, in Redis
 * as the token is, and `GET /auth/login/pending-sessions` and `POST /auth/login/resolve` then
 * require that cookie. A password login's pending token (answered to its own request) has none.
 */
const key = (deps: IdentityDeps, pendingToken: string) => `${deps.config.redis.key_prefix}sso:pending-flow:${sha256(pendingToken)}`;

/** Binds the pending token to the flow; false when Redis cannot take it (the caller then drops the pending login). */
export async function bindPendingToFlow(deps: IdentityDeps, pendingToken: string, flowHash: string): Promise<boolean> {
  if (!deps.redis) return false;
  try {
    // a little longer than the pending login itself, so the binding never ends first
    await deps.redis.set(key(deps, pendingToken), flowHash, "PX", PENDING_LOGIN_TTL_MS + 60_000);
    return true;
  } catch (err) {
    deps.logger.warn(
      { err: { message: (err as Error).message } },
      "pending-login store unavailable; not binding the SSO login to its browser",
    );
    return false;
  }
}

/** Throws 401 unless the pending token is unbound or `flow` (the request's flow cookie) is the browser it is bound to. */
export async function requirePendingBrowser(deps: IdentityDeps, pendingToken: string, flow: string | undefined): Promise<void> {
  if (!deps.redis) return;
  const bound = await deps.redis.get(key(deps, pendingToken));
  if (bound === null) return;
  if (flow === undefined || sha256(flow) !== bound) {
    throw errors.unauthenticated("this sign-in was started in another browser; start it again in this one");
  }
}
