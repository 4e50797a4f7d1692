import { RpcName } from "@burnbox/contracts";
import { serveRpc, type NatsConnection } from "@burnbox/service-kit/messaging";
import type { Logger } from "@burnbox/service-kit/runtime";
import type { TenancyDeps } from "../domain/deps";
import { savedMailerConfig, savedStorageConfig } from "../domain/platform-config/saved-config";

/** The saved mailer (identity) and storage (inbox, SMTP intake), secrets sealed: loaded at start and on each change event. */
export function servePlatformConfigRpc(nc: NatsConnection, deps: TenancyDeps, logger: Logger): Array<{ stop(): Promise<void> }> {
  const ns = deps.config.nats.namespace;
  return [
    serveRpc(nc, ns, RpcName.mailerConfig, () => savedMailerConfig(deps), logger),
    serveRpc(nc, ns, RpcName.storageConfig, () => savedStorageConfig(deps), logger),
  ];
}
