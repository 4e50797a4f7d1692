import { EventType, RpcName, type SavedStorageConfig } from "@burnbox/contracts";
import { rpcRequest, startLiveSetting, type Logger, type NatsConnection, type SecretBox } from "@burnbox/service-kit";
import type { InboxConfig } from "../../config";
import { LocalStorage } from "../../adapters/local-storage";
import { S3Storage } from "../../adapters/s3-storage";
import type { MessageStore } from "../message-store";
import type { SwitchableStore } from "../../adapters/switchable-storage";
import { NO_PLATFORM_SETTINGS, type InboxPlatform, type PlatformView } from "./platform-view";

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

export interface PlatformConfigDeps {
  nc: NatsConnection;
  config: InboxConfig;
  logger: Logger;
  secrets: SecretBox;
}

/**
 * Keeps the inbox API or the SMTP intake on the saved platform storage (tenancy) and platform
 * settings (identity: the demo), on every replica: loaded at start and again on each change
 * event; the configuration (`storage.*`, `demo.enabled`) applies while nothing is saved. The storage secret never crosses NATS in clear.
 */
export async function startPlatformConfig(
  deps: PlatformConfigDeps,
  targets: { storage: SwitchableStore; configured: MessageStore; platform: PlatformView },
): Promise<{ refresh(): Promise<void>; stop(): Promise<void> }> {
  const ns = deps.config.nats.namespace;
  const common = { nc: deps.nc, namespace: ns, logger: deps.logger };
  const [storage, platform] = await Promise.all([
    startLiveSetting<MessageStore>({
      ...common,
      name: `${deps.config.service.name}-storage`,
      eventType: EventType.storageConfigChanged,
      initial: targets.configured,
      load: async () => {
        const { storage: saved } = await rpcRequest(deps.nc, ns, RpcName.storageConfig, {});
        return saved ? platformStore(saved, deps.config, deps.secrets) : targets.configured;
      },
      onChange: (store) => {
        targets.storage.use(store);
        deps.logger.info({ provider: store === targets.configured ? "configured" : "platform" }, "storage settings applied");
      },
    }),
    startLiveSetting<InboxPlatform>({
      ...common,
      name: `${deps.config.service.name}-platform`,
      eventType: EventType.platformSettingsChanged,
      initial: NO_PLATFORM_SETTINGS,
      load: async () => {
        const reply = await rpcRequest(deps.nc, ns, RpcName.platformSettings, {});
        return { demo_enabled: reply.demo_enabled };
      },
      onChange: (value) => targets.platform.set(value),
    }),
  ]);
  return {
    refresh: async () => {
      await Promise.all([storage.refresh(), platform.refresh()]);
    },
    stop: async () => {
      await Promise.all([storage.stop(), platform.stop()]);
    },
  };
}
