import type { Domain } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import { requireOrg } from "../access/require-access";
import type { TenancyDeps } from "../deps";
import { checkDomainDns } from "./check-domain-dns";
import { isTrusted } from "./trusted-domain";

/** Checks a domain's DNS now; a trusted domain is verified without DNS and answers as it is. */
export async function verifyDomain(deps: TenancyDeps, ctx: RequestCtx, input: { orgId: string; domainId: string }): Promise<Domain> {
  const scope = await requireOrg(deps, ctx, input, "org.domains.manage");
  const domain = await deps.data.repos.domains.get(scope, input.domainId);
  if (!domain) throw errors.notFound("domain");
  if (isTrusted(domain.domain_name, deps.config.domains.trusted)) return domain;
  return deps.data.write((repos, events) => checkDomainDns(deps, repos, events, { scope, domain, trigger: "manual", ctx }));
}
