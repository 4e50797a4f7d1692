import { RpcName } from "@burnbox/contracts";
import { serveRpc } from "@burnbox/service-kit/messaging";
import type { IdentityDeps } from "../domain/deps";
import { platformReply } from "../domain/platform/platform-settings";

/** The platform settings for the services that apply them (inbox: demo; tenancy: inbox TTLs), at start and on each change event. */
export function servePlatformRpc(deps: IdentityDeps): Array<{ stop(): Promise<void> }> {
  return [
    serveRpc(
      deps.nc,
      deps.config.nats.namespace,
      RpcName.platformSettings,
      async () => platformReply(deps, await deps.data.repos.platform.all()),
      deps.logger,
    ),
  ];
}
