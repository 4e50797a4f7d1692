import { RpcName, type LoginBody } from "@burnbox/contracts";
import { RpcError, rpcRequest } from "@burnbox/service-kit/messaging";
import { errors } from "@burnbox/service-kit/runtime";
import { selfActor } from "../audit-actor";
import type { IdentityDeps, PublicCtx } from "../deps";
import { admit, sessionLimitError, signedIn, type AuthOutcome } from "./admission";
import { checkPassword } from "./credentials";
import { createPendingLogin } from "./pending-login";

/** Password login. At the session limit: 409 session_limit with a pending token (or, without Redis, the oldest session goes). */
export async function logIn(deps: IdentityDeps, ctx: PublicCtx, input: LoginBody): Promise<AuthOutcome> {
  const userId = await checkPassword(deps, input.email, input.password);
  await refuseWhenSsoEnforced(deps, ctx, userId);
  for (let fallback = false; ; fallback = true) {
    const a = await deps.data.write((repos, events) => admit(deps, repos, events, userId, ctx, { fallback, action: "user.login" }));
    if (a.kind === "in") return signedIn(deps, userId, a);
    const pending = await createPendingLogin(deps, userId);
    if (pending) throw sessionLimitError(pending, a.sessions, a.limit);
    // the pending-login store is down: go round again, revoking the oldest session instead
  }
}

/**
 * 403 when an org the user belongs to enforces SSO (`enforce_sso`). Asked after the password is
 * checked, so the refusal says nothing about accounts to someone without the password. When tenancy
 * cannot answer, the login fails closed with 503 (retry later): whether the org requires SSO is not
 * known, and letting the password through would bypass the policy for as long as tenancy is down.
 */
async function refuseWhenSsoEnforced(deps: IdentityDeps, ctx: PublicCtx, userId: string): Promise<void> {
  let enforced: boolean;
  try {
    ({ enforced } = await rpcRequest(deps.nc, deps.config.nats.namespace, RpcName.ssoEnforced, { user_id: userId }));
  } catch (err) {
    if (!(err instanceof RpcError)) throw err;
    deps.logger.warn({ err: { message: err.message }, userId }, "password login refused: tenancy did not answer the enforce_sso check");
    throw errors.unavailable("sign-in is temporarily unavailable, try again shortly");
  }
  if (!enforced) return;
  await deps.data.write((_repos, events) => {
    events.audit({
      ctx: selfActor(userId, ctx.ip),
      action: "user.login_failed",
      org_id: null,
      target: { type: "user", id: userId },
      metadata: { reason: "sso_enforced" },
    });
    return Promise.resolve();
  });
  throw errors.forbidden("your organization requires single sign-on: sign in with your identity provider");
}
