import { EventType, RpcName, type SavedStorageConfig } from "@burnbox/contracts";
import { rpcRequest, startLiveSetting, type NatsConnection } from "@burnbox/service-kit/messaging";
import type { Logger } from "@burnbox/service-kit/runtime";
import type { InboxConfig } from "../../config";
import type { MessageStore } from "../message-store";
import { NO_PLATFORM_SETTINGS, type InboxPlatform, type PlatformView } from "./platform-view";

export interface PlatformConfigDeps {
  nc: NatsConnection;
  config: InboxConfig;
  logger: Logger;
}

/**
 * Keeps the inbox API or the SMTP intake on the saved platform storage (tenancy) and platform
 * settings (identity: the demo), on every replica: loaded at start and again on each change
 * event; the configuration (`storage.*`, `demo.enabled`) applies while nothing is saved. The storage secret never crosses NATS in clear.
 * The drivers are the adapters' (`storeFor` builds the store a saved configuration describes,
 * `storage.use` switches to it): this file only decides when.
 */
export async function startPlatformConfig(
  deps: PlatformConfigDeps,
  targets: {
    storage: { use(store: MessageStore): void };
    configured: MessageStore;
    storeFor: (saved: SavedStorageConfig) => MessageStore;
    platform: PlatformView;
  },
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
        return saved ? targets.storeFor(saved) : targets.configured;
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
