import type { BulkVerifyDomainsBody, BulkVerifyDomainsResult } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { requireOrg } from "../access/require-access";
import type { TenancyDeps } from "../deps";
import { checkDomainDns } from "./check-domain-dns";
import { isTrusted } from "./trusted-domain";

/** Checks the DNS of up to 50 of the org's domains, one change each; another org's or unknown ids fail as not_found. */
export async function bulkVerifyDomains(
  deps: TenancyDeps,
  ctx: RequestCtx,
  input: { orgId: string } & BulkVerifyDomainsBody,
): Promise<BulkVerifyDomainsResult> {
  const scope = await requireOrg(deps, ctx, input, "org.domains.manage");
  const result: BulkVerifyDomainsResult = { results: [], failed: [] };
  for (const domainId of new Set(input.domain_ids)) {
    const domain = await deps.data.repos.domains.get(scope, domainId);
    if (!domain) result.failed.push({ domain_id: domainId, reason: "not_found" });
    else if (isTrusted(domain.domain_name, deps.config.domains.trusted)) result.results.push(domain);
    else
      result.results.push(
        await deps.data.write((repos, events) => checkDomainDns(deps, repos, events, { scope, domain, trigger: "manual", ctx })),
      );
  }
  return result;
}
