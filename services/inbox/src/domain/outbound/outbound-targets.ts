import { RpcName } from "@burnbox/contracts";
import { pinTarget, type OutboundPolicy, type SecretBox } from "@burnbox/service-kit/security";
import type { InboxDeps } from "../deps";
import { askTenancy } from "../tenancy";
import type { SmtpAnswer, SmtpTarget } from "./mail-sender";

/** BurnBox's own SMTP intake: `outbound.intake` (`host:port`), else 127.0.0.1 on `smtp.port`. Plain SMTP, no login. */
export function intakeTarget(config: InboxDeps["config"]): SmtpTarget {
  const [host, port] = config.outbound.intake ? config.outbound.intake.split(/:(?=\d+$)/) : ["127.0.0.1", String(config.smtp.port)];
  const h = host ?? "127.0.0.1";
  return { host: h, address: h, port: Number(port), secure: false, requireTls: false, ignoreTls: true, user: "", password: "" };
}

/**
 * The platform mailer as a relay for one attempt: the saved one (PUT /admin/config/mailer; its
 * password opened with `encryption.key`), held to the outbound rules of spec 6.4 and
 * `mailer.allowed_ports` at every attempt and pinned to the checked address, like identity's
 * account mail; else `mail.*` (the operator's own, used as configured). None: an answer without a
 * code, so the attempt is retried and, in the end, failed with it.
 */
export async function relayTarget(deps: InboxDeps, policy: OutboundPolicy, secrets: SecretBox | null): Promise<SmtpTarget | SmtpAnswer> {
  const { mailer: saved } = await askTenancy(deps, RpcName.mailerConfig, {});
  if (saved) {
    const implicitTls = saved.tls && saved.port === 465;
    try {
      const pinned = await pinTarget(saved.host, policy, { port: saved.port, ports: deps.config.mailer.allowed_ports });
      return {
        host: saved.host,
        address: pinned.address,
        port: saved.port,
        secure: implicitTls,
        requireTls: saved.tls && !implicitTls,
        ignoreTls: !saved.tls,
        user: saved.username,
        password: saved.password_sealed && secrets ? secrets.open(saved.password_sealed) : "",
      };
    } catch (err) {
      return { code: null, reply: `platform mailer refused: ${(err as Error).message}` };
    }
  }
  const mail = deps.config.mail;
  if (!mail.smtp_host) return { code: null, reply: "no platform mailer is configured (PUT /admin/config/mailer)" };
  return {
    host: mail.smtp_host,
    address: mail.smtp_host,
    port: mail.smtp_port,
    secure: mail.smtp_secure,
    requireTls: false,
    ignoreTls: false,
    user: mail.smtp_user,
    password: mail.smtp_password,
  };
}
