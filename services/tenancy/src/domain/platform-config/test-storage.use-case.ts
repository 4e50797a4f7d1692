import type { InfraTestResult } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import type { TenancyDeps } from "../deps";
import { probeStorage } from "../infra-probe";
import { adminProbeEnv } from "./probe-env";
import { requirePlatformAdmin } from "./platform-admin";

/** Tries the saved storage (S3: a signed HEAD of the bucket; local needs no connection). */
export async function testStorage(deps: TenancyDeps, ctx: RequestCtx): Promise<InfraTestResult> {
  requirePlatformAdmin(ctx);
  const saved = await deps.data.repos.platformConfig.storage();
  if (!saved) return probeStorage({ provider: "local" }, adminProbeEnv(deps.config));
  let secretKey: string | null = null;
  if (saved.secret_key_sealed) {
    try {
      secretKey = deps.secrets.open(saved.secret_key_sealed);
    } catch {
      return { success: false, message: "the stored secret key cannot be read: check encryption.key", response_time_ms: 0 };
    }
  }
  return probeStorage({ ...saved, secret_key: secretKey }, adminProbeEnv(deps.config));
}
