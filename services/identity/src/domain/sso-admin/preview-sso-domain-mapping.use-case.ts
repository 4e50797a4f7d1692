import { RpcName, type SsoMappingPreview, type SsoMappingPreviewBody } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { rpcRequest, RpcError } from "@burnbox/service-kit/messaging";
import { errors } from "@burnbox/service-kit/runtime";
import { requireSystemAdmin } from "../admin-users/system-admin";
import type { IdentityDeps } from "../deps";
import { emailDomainOf, previewOf, provisioningPlan } from "./provisioning-plan";

export async function previewSsoDomainMapping(
  deps: IdentityDeps,
  ctx: RequestCtx,
  body: SsoMappingPreviewBody,
): Promise<SsoMappingPreview> {
  requireSystemAdmin(ctx);
  const provider = await deps.data.repos.ssoProviders.byName(body.provider);
  if (!provider) throw errors.notFound("SSO provider");
  const matching = await deps.data.repos.ssoProviders.mappingsForDomain(provider.id, emailDomainOf(body.email));
  const plan = provisioningPlan(provider, matching);
  return previewOf(body.email, provider.name, plan, await teamNamesOf(deps, plan));
}

/** The names of the plan's teams, asked of tenancy (which keeps them): 503 when it does not answer. */
async function teamNamesOf(deps: IdentityDeps, plan: ReturnType<typeof provisioningPlan>): Promise<Map<string, string>> {
  const teams = plan.memberships.flatMap((m) => (m.team_id ? [{ org_id: m.org_id, team_id: m.team_id }] : []));
  if (teams.length === 0) return new Map();
  try {
    const reply = await rpcRequest(deps.nc, deps.config.nats.namespace, RpcName.teamNames, { teams });
    return new Map(reply.teams.map((t) => [t.team_id, t.name]));
  } catch (err) {
    if (err instanceof RpcError) throw errors.unavailable("organization directory unavailable");
    throw err;
  }
}
