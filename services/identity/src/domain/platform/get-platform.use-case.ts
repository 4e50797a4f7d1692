import type { RequestCtx } from "@burnbox/service-kit";
import { requireSystemAdmin } from "../admin-users/system-admin";
import type { IdentityDeps } from "../deps";
import { platformSessionCap } from "./session-cap";

export async function getPlatform(deps: IdentityDeps, ctx: RequestCtx): Promise<{ max_sessions_per_user: number }> {
  requireSystemAdmin(ctx);
  return { max_sessions_per_user: await platformSessionCap(deps, deps.data.repos) };
}
