import type { MailerConfig, UpdateMailerConfigBody } from "@burnbox/contracts";
import { errors } from "@burnbox/service-kit/runtime";
import { RefusedTarget, pinTarget } from "@burnbox/service-kit/security";
import type { TenancyConfig } from "../../config";
import { refusalMessage } from "../infra-probe";
import { adminProbeEnv } from "./probe-env";

/**
 * A saved mailer (admin's PUT, setup's `mailer`) is held to the SMTP probe's rules before anything
 * is stored: the host resolved through `dns.servers`, every address public (unless
 * `infra.unsafe_allowed_targets` exempts it), the port one of `mailer.allowed_ports`. A 400 otherwise.
 * Identity checks again at every connection and connects to the checked address.
 */
export async function checkMailerTarget(config: TenancyConfig, host: string, port: number): Promise<void> {
  try {
    await pinTarget(host, adminProbeEnv(config).policy, { port, ports: config.mailer.allowed_ports });
  } catch (err) {
    if (err instanceof RefusedTarget) throw errors.validation(`mailer ${refusalMessage(err)}`);
    throw err;
  }
}

/** The configured mailer (`mail.*`, identity's fallback while none is saved) as an admin reads it. */
export function configuredMailerView(mail: TenancyConfig["mail"]): MailerConfig {
  return {
    host: mail.smtp_host,
    port: mail.smtp_port,
    username: mail.smtp_user,
    from: mail.from,
    tls: mail.smtp_secure,
    has_password: mail.smtp_password !== "",
  };
}

/**
 * Whether a PUT names exactly the configured mailer and keeps the password: it then hands the
 * mailer back to the configuration (the saved one is removed), so a PUT of what GET showed while
 * none was saved succeeds and saves nothing the outbound rules have not checked.
 */
export function isConfiguredMailer(mail: TenancyConfig["mail"], input: UpdateMailerConfigBody): boolean {
  const view = configuredMailerView(mail);
  return (
    input.host === view.host &&
    input.port === view.port &&
    (input.username ?? "") === view.username &&
    input.from === view.from &&
    input.tls === view.tls &&
    (input.password === undefined || input.password === "")
  );
}
