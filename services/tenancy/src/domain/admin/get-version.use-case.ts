import { readFileSync } from "node:fs";
import type { AdminVersion } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit";
import type { TenancyDeps } from "../deps";
import { requirePlatformAdmin } from "../platform-config/platform-admin";

/** The `version` of a package.json (read once at start); "unknown" when the file is not there. */
export function packageVersion(file: string): string {
  try {
    const v = (JSON.parse(readFileSync(file, "utf8")) as { version?: unknown }).version;
    return typeof v === "string" ? v : "unknown";
  } catch {
    return "unknown";
  }
}

/** The running version, and the commit and date the build recorded (`build.commit`, `build.date`). */
export function getVersion(deps: TenancyDeps, ctx: RequestCtx, version: string): Promise<AdminVersion> {
  requirePlatformAdmin(ctx);
  const { commit, date } = deps.config.build;
  return Promise.resolve({ version, ...(commit ? { commit } : {}), ...(date ? { build_date: date } : {}) });
}
