import type { LoginBody } from "@burnbox/contracts";
import type { IdentityDeps, PublicCtx } from "../deps";
import { admit, sessionLimitError, signedIn, type AuthOutcome } from "./admission";
import { checkPassword } from "./credentials";
import { createPendingLogin } from "./pending-login";

/** Password login. At the session limit: 409 session_limit with a pending token (or, without Redis, the oldest session goes). */
export async function logIn(deps: IdentityDeps, ctx: PublicCtx, input: LoginBody): Promise<AuthOutcome> {
  const userId = await checkPassword(deps, input.email, input.password);
  for (let fallback = false; ; fallback = true) {
    const a = await deps.data.write((repos, events) => admit(deps, repos, events, userId, ctx, { fallback, action: "user.login" }));
    if (a.kind === "in") return signedIn(deps, userId, a);
    const pending = await createPendingLogin(deps, userId);
    if (pending) throw sessionLimitError(pending, a.sessions, a.limit);
    // the pending-login store is down: go round again, revoking the oldest session instead
  }
}
