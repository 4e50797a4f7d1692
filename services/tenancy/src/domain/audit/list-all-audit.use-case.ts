import type { AuditEntry, ListAuditQuery, Page } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import { isSystemAdmin } from "../access/rbac";
import type { TenancyDeps } from "../deps";

/** `GET /admin/audit`: every entry of the platform (system administrators, never through an API key). */
export async function listAllAudit(deps: TenancyDeps, ctx: RequestCtx, query: ListAuditQuery): Promise<Page<AuditEntry>> {
  if (!isSystemAdmin(ctx.actor)) throw errors.forbidden(ctx.actor.api_key ? "insufficient scope" : "system admin required");
  const { page, per_page, ...filter } = query;
  return deps.data.repos.audit.page({ everyOrg: true }, filter, { page, per_page });
}
