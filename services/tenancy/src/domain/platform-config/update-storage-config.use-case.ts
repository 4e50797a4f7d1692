import { EventType, type StorageConfig, type UpdateStorageConfigBody } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import type { TenancyDeps } from "../deps";
import { probeStorage } from "../infra-probe";
import { adminProbeEnv } from "./probe-env";
import { requirePlatformAdmin } from "./platform-admin";
import { nextSealedSecret, secretChange, storageView } from "./platform-config-rules";

/** The kept secret key, for the check; one that this service's key cannot open is a 400 (give it again). */
function openStored(deps: TenancyDeps, sealed: string): string {
  try {
    return deps.secrets.open(sealed);
  } catch {
    throw errors.validation("the stored secret key cannot be read with encryption.key: give secret_key again");
  }
}

/**
 * Replaces the storage configuration once a connection to it succeeds (400 with a generic message
 * otherwise). The secret key follows the mailer password's rules and is sealed with
 * `encryption.key`. Every inbox and SMTP intake replica switches to it on the event.
 */
export async function updateStorageConfig(deps: TenancyDeps, ctx: RequestCtx, input: UpdateStorageConfigBody): Promise<StorageConfig> {
  requirePlatformAdmin(ctx);
  const stored = await deps.data.repos.platformConfig.storage();
  const s3 = input.provider === "s3";
  const change = s3 ? secretChange(input.secret_key) : ({ kind: "clear" } as const);
  // sealing first: without a key the answer is 400 before anything is tried or written
  const sealed = nextSealedSecret(stored?.provider === "s3" ? stored.secret_key_sealed : null, change, (plain) => deps.secrets.seal(plain));
  const fields = {
    provider: input.provider,
    local_path: s3 ? null : (input.local_path ?? null),
    endpoint: s3 ? (input.endpoint ?? null) : null,
    bucket: s3 ? (input.bucket ?? null) : null,
    region: s3 ? (input.region ?? null) : null,
    access_key: s3 ? (input.access_key ?? null) : null,
    use_ssl: s3 ? (input.use_ssl ?? true) : false,
  };
  const secretKey = change.kind === "set" ? change.value : sealed ? openStored(deps, sealed) : null;
  const check = await probeStorage({ ...fields, secret_key: secretKey }, adminProbeEnv(deps.config));
  if (!check.success) throw errors.validation(`storage check failed: ${check.message}`);
  return deps.data.write(async (repos, events) => {
    await repos.platformConfig.saveStorage(fields, sealed, ctx.actor.user_id);
    events.event(EventType.storageConfigChanged, { org_id: null, team_id: null, data: {} });
    events.audit({
      ctx,
      action: "admin.storage_config_updated",
      org_id: null,
      target: { type: "platform_config", id: "storage" },
      metadata: { ...fields, secret_key: change.kind === "set" ? "changed" : change.kind === "clear" ? "cleared" : "kept" },
    });
    return storageView({ ...fields, secret_key_sealed: sealed });
  });
}
