import type { StorageConfig } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import type { TenancyDeps } from "../deps";
import { requirePlatformAdmin } from "./platform-admin";
import { storageView } from "./platform-config-rules";

/** The saved storage, without its secret key (`has_secret_key`). */
export async function getStorageConfig(deps: TenancyDeps, ctx: RequestCtx): Promise<StorageConfig> {
  requirePlatformAdmin(ctx);
  return storageView(await deps.data.repos.platformConfig.storage());
}
