import type { SavedStorageConfig } from "@burnbox/contracts";
import type { SecretBox } from "@burnbox/service-kit/security";
import type { InboxConfig } from "../config";
import type { MessageStore } from "../domain/message-store";
import { LocalStorage } from "./local-storage";
import { S3Storage } from "./s3-storage";

/** The configured message store: the local filesystem (default) or an S3-compatible object store. */
export function configuredStore(config: InboxConfig): MessageStore {
  return config.storage.provider === "s3" ? new S3Storage(config.storage.s3) : new LocalStorage(config.storage.local_path);
}

/** An endpoint saved as `host:port` gets its scheme from `use_ssl`; a URL is kept. */
export const endpointUrl = (endpoint: string, useSsl: boolean): string =>
  /^[a-z]+:\/\//i.test(endpoint) ? endpoint : `${useSsl ? "https" : "http"}://${endpoint}`;

/** The store a saved platform storage configuration describes; its secret key opened with this service's `encryption.key`. */
export function platformStore(saved: SavedStorageConfig, config: InboxConfig, secrets: SecretBox): MessageStore {
  if (saved.provider === "local") return new LocalStorage(saved.local_path ?? config.storage.local_path);
  return new S3Storage({
    endpoint: saved.endpoint ? endpointUrl(saved.endpoint, saved.use_ssl) : undefined,
    bucket: saved.bucket ?? config.storage.s3.bucket,
    region: saved.region ?? "us-east-1",
    access_key_id: saved.access_key ?? undefined,
    secret_access_key: saved.secret_key_sealed ? secrets.open(saved.secret_key_sealed) : undefined,
    // S3-compatible servers on an endpoint of their own (MinIO, s3rver) address buckets by path
    force_path_style: saved.endpoint ? true : config.storage.s3.force_path_style,
  });
}
