import type { PlatformSettings } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { requireSystemAdmin } from "../admin-users/system-admin";
import type { IdentityDeps } from "../deps";
import { platformInEffect } from "./platform-settings";

export async function getPlatform(deps: IdentityDeps, ctx: RequestCtx): Promise<PlatformSettings> {
  requireSystemAdmin(ctx);
  return platformInEffect(deps, await deps.data.repos.platform.all());
}
