import type { AuditEntry, ListAuditQuery, Page } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { requireOrg } from "../access/require-access";
import type { TenancyDeps } from "../deps";

/** `GET /orgs/:id/audit`: the org's entries, newest first, narrowed by the filters. */
export async function listOrgAudit(
  deps: TenancyDeps,
  ctx: RequestCtx,
  input: { orgId: string; query: ListAuditQuery },
): Promise<Page<AuditEntry>> {
  const scope = await requireOrg(deps, ctx, input, "org.audit.view");
  const { page, per_page, ...filter } = input.query;
  return deps.data.repos.audit.page({ org: scope }, filter, { page, per_page });
}
