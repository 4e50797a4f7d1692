import { z } from "../zod";

/**
 * The saved platform mailer and storage (tenancy), for identity's mailer and the inbox's store:
 * null when none is saved (the service's own `mail.*` / `storage.*` apply). Secrets travel sealed
 * (AES-256-GCM with `encryption.key`, which every service holds) and are opened by the caller.
 */
export const PlatformConfigRequest = z.object({});
export const SavedMailerConfig = z.object({
  host: z.string(),
  port: z.number().int(),
  username: z.string(),
  from: z.string(),
  tls: z.boolean(),
  password_sealed: z.string().nullable(),
});
export type SavedMailerConfig = z.infer<typeof SavedMailerConfig>;
export const MailerConfigReply = z.object({ mailer: SavedMailerConfig.nullable() });
export const SavedStorageConfig = z.object({
  provider: z.enum(["local", "s3"]),
  local_path: z.string().nullable(),
  endpoint: z.string().nullable(),
  bucket: z.string().nullable(),
  region: z.string().nullable(),
  access_key: z.string().nullable(),
  use_ssl: z.boolean(),
  secret_key_sealed: z.string().nullable(),
});
export type SavedStorageConfig = z.infer<typeof SavedStorageConfig>;
export const StorageConfigReply = z.object({ storage: SavedStorageConfig.nullable() });

/** Tenancy: the saved platform mailer (identity) and storage (inbox). */
export const platformConfigRpc = {
  mailerConfig: { name: "tenancy.mailer_config", request: PlatformConfigRequest, reply: MailerConfigReply },
  storageConfig: { name: "tenancy.storage_config", request: PlatformConfigRequest, reply: StorageConfigReply },
} as const;
