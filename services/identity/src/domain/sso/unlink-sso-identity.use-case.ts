import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import type { IdentityDeps, Message } from "../deps";
import { requireOwnSession } from "./own-session";

/** Unlinks a provider from the caller; 409 when it is their last way to sign in (no password, no other link). */
export async function unlinkSsoIdentity(deps: IdentityDeps, ctx: RequestCtx, input: { provider: string }): Promise<Message> {
  const userId = requireOwnSession(ctx);
  const provider = await deps.data.repos.ssoProviders.byName(input.provider);
  if (!provider) throw errors.notFound("linked SSO identity");
  await deps.data.write(async (repos, events) => {
    await repos.sessions.lockUser(userId);
    const removed = await repos.ssoIdentities.unlink(userId, provider.id);
    if (!removed) throw errors.notFound("linked SSO identity");
    const hasPassword = Boolean((await repos.users.passwordHash(userId))?.passwordHash);
    if (!hasPassword && (await repos.ssoIdentities.count(userId)) === 0) {
      throw errors.conflict("cannot unlink the last way to sign in: set a password first");
    }
    events.audit({
      ctx,
      action: "user.sso_unlinked",
      org_id: null,
      target: { type: "user", id: userId },
      metadata: { provider: provider.name, subject: removed.subject },
    });
  });
  return { message: "SSO identity unlinked" };
}
