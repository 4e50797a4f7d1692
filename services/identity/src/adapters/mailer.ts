import net from "node:net";
import nodemailer, { type SendMailOptions, type Transporter } from "nodemailer";
import type { Logger } from "@burnbox/service-kit/runtime";
import { RefusedTarget, SMTP_SUBMISSION_PORTS, pinTarget, type OutboundPolicy } from "@burnbox/service-kit/security";
import type { IdentityConfig } from "../config";

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
}

/** Where account mail goes: the saved platform mailer (PUT /admin/config/mailer), else `mail.*`. */
export interface MailerSettings {
  host: string;
  port: number;
  /** Implicit TLS from the first byte (port 465 style). */
  secure: boolean;
  /** STARTTLS required; false with `ignoreTls` means plain SMTP. */
  requireTls: boolean;
  ignoreTls: boolean;
  user: string;
  password: string;
  from: string;
  /** Where the settings come from, for the log. */
  source: "config" | "platform";
}

/** The settings of `mail.*` (the fallback when no mailer is saved). */
export function configMailerSettings(mail: IdentityConfig["mail"]): MailerSettings {
  return {
    host: mail.smtp_host,
    port: mail.smtp_port,
    secure: mail.smtp_secure,
    requireTls: false,
    ignoreTls: false,
    user: mail.smtp_user,
    password: mail.smtp_password,
    from: mail.from,
    source: "config",
  };
}

/** A transport to `s`; `address` (a checked one) replaces the host as the connection's target, the host staying the TLS name. */
function transportOf(s: MailerSettings, address?: string): Transporter {
  return nodemailer.createTransport({
    host: address ?? s.host,
    port: s.port,
    secure: s.secure,
    requireTLS: s.requireTls,
    ignoreTLS: s.ignoreTls,
    ...(address && !net.isIP(s.host) ? { tls: { servername: s.host } } : {}),
    ...(s.user ? { auth: { user: s.user, pass: s.password } } : {}),
  });
}

/**
 * Account mail (invites, reset links, verification) through the current SMTP settings. `use`
 * switches every later mail to new settings at once (a change of the saved platform mailer);
 * mail already handed to the old transport finishes on it.
 *
 * The saved platform mailer (an admin's input) is held to the outbound rules at every connection,
 * as tenancy held it at save time: its host is resolved through `dns.servers`, every address must
 * pass the address rules (unless `infra.unsafe_allowed_targets` exempts it), the port must be one
 * of `mailer.allowed_ports` (`ports`; SMTP submission and relay by default), and the connection goes to the checked address (so a DNS answer changed
 * after the save cannot redirect it). `mail.*` is the operator's own and is used as configured.
 */
export class Mailer {
  private settings: MailerSettings;
  private transport: Transporter | null;

  constructor(
    initial: MailerSettings,
    private readonly logger: Logger,
    private readonly outbound: OutboundPolicy,
    private readonly ports: readonly number[] = SMTP_SUBMISSION_PORTS,
  ) {
    this.settings = initial;
    this.transport = initial.host && initial.source === "config" ? transportOf(initial) : null;
    if (!initial.host) logger.warn("no mailer is configured (mail.smtp_host, or PUT /admin/config/mailer): account mail will not be sent");
  }

  /** Switches to new settings; the old transport closes once its mail is out. */
  use(settings: MailerSettings): void {
    const old = this.transport;
    this.settings = settings;
    this.transport = settings.host && settings.source === "config" ? transportOf(settings) : null;
    this.logger.info({ source: settings.source, host: settings.host, port: settings.port }, "mailer settings applied");
    if (old) setTimeout(() => old.close(), 30_000).unref();
  }

  /** Sends in the background: the caller's answer never waits on (or reveals) the mail server. */
  send(mail: OutgoingMail): void {
    const settings = this.settings;
    if (!settings.host) return;
    const message = { from: settings.from, to: mail.to, subject: mail.subject, text: mail.text };
    const sent = this.transport ? this.transport.sendMail(message) : this.sendGuarded(settings, message);
    sent.catch((err: unknown) =>
      this.logger.error(
        { err: { message: (err as Error).message }, refused: err instanceof RefusedTarget },
        "account mail could not be sent",
      ),
    );
  }

  /** One connection to the saved mailer's checked address (a non-pooled transport, closed after the mail). */
  private async sendGuarded(settings: MailerSettings, message: SendMailOptions): Promise<unknown> {
    const target = await pinTarget(settings.host, this.outbound, { port: settings.port, ports: this.ports });
    const transport = transportOf(settings, target.address);
    try {
      return await transport.sendMail(message);
    } finally {
      transport.close();
    }
  }

  close(): void {
    this.transport?.close();
  }
}
