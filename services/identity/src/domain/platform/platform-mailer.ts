import { EventType, RpcName, type SavedMailerConfig } from "@burnbox/contracts";
import { rpcRequest, startLiveSetting, type LiveSetting } from "@burnbox/service-kit/messaging";
import type { SecretBox } from "@burnbox/service-kit/security";
import { configMailerSettings, type Mailer, type MailerSettings } from "../../adapters/mailer";
import type { IdentityDeps } from "../deps";

/** The saved platform mailer as transport settings; its password opened with this service's `encryption.key`. */
export function platformMailerSettings(saved: SavedMailerConfig, secrets: SecretBox): MailerSettings {
  const implicitTls = saved.tls && saved.port === 465;
  return {
    host: saved.host,
    port: saved.port,
    secure: implicitTls,
    requireTls: saved.tls && !implicitTls,
    ignoreTls: !saved.tls,
    user: saved.username,
    password: saved.password_sealed ? secrets.open(saved.password_sealed) : "",
    from: saved.from,
    source: "platform",
  };
}

/**
 * Keeps the mailer on the saved platform mailer (tenancy), on every replica: loaded at start and
 * again on each `platform.mailer_config_changed`; `mail.*` applies while none is saved. The
 * password never crosses NATS in clear: it comes sealed and is opened here.
 */
export function startPlatformMailer(
  deps: Pick<IdentityDeps, "nc" | "config" | "logger" | "secrets">,
  mailer: Mailer,
): Promise<LiveSetting<MailerSettings>> {
  const ns = deps.config.nats.namespace;
  return startLiveSetting({
    nc: deps.nc,
    namespace: ns,
    logger: deps.logger,
    name: "identity-mailer",
    eventType: EventType.mailerConfigChanged,
    initial: configMailerSettings(deps.config.mail),
    load: async () => {
      const { mailer: saved } = await rpcRequest(deps.nc, ns, RpcName.mailerConfig, {});
      return saved ? platformMailerSettings(saved, deps.secrets) : configMailerSettings(deps.config.mail);
    },
    onChange: (settings) => mailer.use(settings),
  });
}
