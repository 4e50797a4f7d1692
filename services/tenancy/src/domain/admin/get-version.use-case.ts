import type { AdminVersion } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import type { TenancyDeps } from "../deps";
import { requirePlatformAdmin } from "../platform-config/platform-admin";

/** The running version, and the commit and date the build recorded (`build.commit`, `build.date`). */
export function getVersion(deps: TenancyDeps, ctx: RequestCtx, version: string): Promise<AdminVersion> {
  requirePlatformAdmin(ctx);
  const { commit, date } = deps.config.build;
  return Promise.resolve({ version, ...(commit ? { commit } : {}), ...(date ? { build_date: date } : {}) });
}
