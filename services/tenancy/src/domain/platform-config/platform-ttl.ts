import { EventType, PLATFORM_TTL_DEFAULTS, RpcName } from "@burnbox/contracts";
import { rpcRequest, startLiveSetting, type LiveSetting, type NatsConnection } from "@burnbox/service-kit/messaging";
import type { Logger } from "@burnbox/service-kit/runtime";

/** The top tier of the inbox TTL cascade: the platform's TTLs (PUT /admin/platform), else 10m and 24h. */
export type PlatformTtl = {
  default_inbox_ttl: string;
  max_inbox_ttl: string;
};

/** The platform tier as last loaded; every replica keeps it current through the change event. */
export class PlatformTtlView {
  private value: PlatformTtl = { ...PLATFORM_TTL_DEFAULTS };

  current(): PlatformTtl {
    return this.value;
  }

  set(value: PlatformTtl): void {
    this.value = value;
  }
}

/** Loads the platform's TTLs from identity at start and on each `platform.settings_changed`. */
export function startPlatformTtl(opts: {
  nc: NatsConnection;
  namespace: string;
  logger: Logger;
  view: PlatformTtlView;
}): Promise<LiveSetting<PlatformTtl>> {
  const { nc, namespace } = opts;
  return startLiveSetting<PlatformTtl>({
    nc,
    namespace,
    logger: opts.logger,
    name: "tenancy-platform-ttl",
    eventType: EventType.platformSettingsChanged,
    initial: opts.view.current(),
    load: async () => {
      const reply = await rpcRequest(nc, namespace, RpcName.platformSettings, {});
      return {
        default_inbox_ttl: reply.default_inbox_ttl ?? PLATFORM_TTL_DEFAULTS.default_inbox_ttl,
        max_inbox_ttl: reply.max_inbox_ttl ?? PLATFORM_TTL_DEFAULTS.max_inbox_ttl,
      };
    },
    onChange: (value) => opts.view.set(value),
  });
}
