import { randomUUID } from "node:crypto";
import type { SsoProvider, SsoProviderBody } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { publicProvider } from "../../data/sso-provider.repository";
import { requireSystemAdmin } from "../admin-users/system-admin";
import type { IdentityDeps } from "../deps";
import { providerAudit, providerFields } from "./provider-fields";

export async function createSsoProvider(deps: IdentityDeps, ctx: RequestCtx, body: SsoProviderBody): Promise<SsoProvider> {
  requireSystemAdmin(ctx);
  const fields = providerFields(deps, body, null);
  const id = randomUUID();
  return deps.data.write(async (repos, events) => {
    const p = await repos.ssoProviders.create(id, fields);
    events.audit({
      ctx,
      action: "sso_provider.created",
      org_id: null,
      target: { type: "sso_provider", id },
      metadata: providerAudit(fields),
    });
    return publicProvider(p);
  });
}
