import type { Org } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import { requireOrg } from "../access/require-access";
import type { TenancyDeps } from "../deps";

export async function getOrgSettings(deps: TenancyDeps, ctx: RequestCtx, input: { orgId: string }): Promise<Org["settings"]> {
  const scope = await requireOrg(deps, ctx, input, "org.settings.view");
  const org = await deps.data.repos.orgs.get(scope);
  if (!org) throw errors.notFound("organization");
  return org.settings;
}
