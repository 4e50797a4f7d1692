import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import { requireSystemAdmin } from "../admin-users/system-admin";
import type { IdentityDeps } from "../deps";

/** Deletes the provider with its mappings and linked identities (204). */
export async function deleteSsoProvider(deps: IdentityDeps, ctx: RequestCtx, input: { providerId: string }): Promise<undefined> {
  requireSystemAdmin(ctx);
  await deps.data.write(async (repos, events) => {
    const p = await repos.ssoProviders.get(input.providerId);
    if (!p || !(await repos.ssoProviders.delete(input.providerId))) throw errors.notFound("SSO provider");
    events.audit({
      ctx,
      action: "sso_provider.deleted",
      org_id: null,
      target: { type: "sso_provider", id: p.id },
      metadata: { name: p.name },
    });
  });
  deps.rp.forget(input.providerId);
  return undefined;
}
