import type { Domain } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import { requireOrg } from "../access/require-access";
import type { TenancyDeps } from "../deps";

export async function getDomain(deps: TenancyDeps, ctx: RequestCtx, input: { orgId: string; domainId: string }): Promise<Domain> {
  const scope = await requireOrg(deps, ctx, input, "org.domains.view");
  const domain = await deps.data.repos.domains.get(scope, input.domainId);
  if (!domain) throw errors.notFound("domain");
  return domain;
}
