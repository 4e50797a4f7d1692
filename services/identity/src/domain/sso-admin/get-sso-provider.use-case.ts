import type { SsoProvider } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import { publicProvider } from "../../data/sso-provider.repository";
import { requireSystemAdmin } from "../admin-users/system-admin";
import type { IdentityDeps } from "../deps";

export async function getSsoProvider(deps: IdentityDeps, ctx: RequestCtx, input: { providerId: string }): Promise<SsoProvider> {
  requireSystemAdmin(ctx);
  const p = await deps.data.repos.ssoProviders.get(input.providerId);
  if (!p) throw errors.notFound("SSO provider");
  return publicProvider(p);
}
