import type { SavedMailerConfig, SavedStorageConfig } from "@burnbox/contracts";
import type { TenancyDeps } from "../deps";

/** The saved mailer for identity (`tenancy.mailer_config`): the password stays sealed. */
export async function savedMailerConfig(deps: TenancyDeps): Promise<{ mailer: SavedMailerConfig | null }> {
  return { mailer: await deps.data.repos.platformConfig.mailer() };
}

/** The saved storage for the inbox service and the SMTP intake (`tenancy.storage_config`): the secret key stays sealed. */
export async function savedStorageConfig(deps: TenancyDeps): Promise<{ storage: SavedStorageConfig | null }> {
  return { storage: await deps.data.repos.platformConfig.storage() };
}
