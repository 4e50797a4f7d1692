import type { AdminStats } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import { isSystemAdmin } from "../access/rbac";
import type { TenancyDeps } from "../deps";
import { computeAdminStats } from "./compute-admin-stats";

/** `GET /admin/stats`: system administrators only, never through an API key (the gateway refuses keys too). */
export async function getAdminStats(deps: TenancyDeps, ctx: RequestCtx): Promise<AdminStats> {
  if (!isSystemAdmin(ctx.actor)) throw errors.forbidden("system admin required");
  return computeAdminStats(deps);
}
