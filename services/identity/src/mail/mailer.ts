import nodemailer, { type Transporter } from "nodemailer";
import type { Logger } from "@burnbox/service-kit";
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

function transportOf(s: MailerSettings): Transporter | null {
  if (!s.host) return null;
  return nodemailer.createTransport({
    host: s.host,
    port: s.port,
    secure: s.secure,
    requireTLS: s.requireTls,
    ignoreTLS: s.ignoreTls,
    ...(s.user ? { auth: { user: s.user, pass: s.password } } : {}),
  });
}

/**
 * Account mail (invites, reset links, verification) through the current SMTP settings. `use`
 * switches every later mail to new settings at once (a change of the saved platform mailer);
 * mail already handed to the old transport finishes on it.
 */
export class Mailer {
  private settings: MailerSettings;
  private transport: Transporter | null;

  constructor(
    initial: MailerSettings,
    private readonly logger: Logger,
  ) {
    this.settings = initial;
    this.transport = transportOf(initial);
    if (!this.transport)
      logger.warn("no mailer is configured (mail.smtp_host, or PUT /admin/config/mailer): account mail will not be sent");
  }

  /** Switches to new settings; the old transport closes once its mail is out. */
  use(settings: MailerSettings): void {
    const old = this.transport;
    this.settings = settings;
    this.transport = transportOf(settings);
    this.logger.info({ source: settings.source, host: settings.host, port: settings.port }, "mailer settings applied");
    if (old) setTimeout(() => old.close(), 30_000).unref();
  }

  /** Sends in the background: the caller's answer never waits on (or reveals) the mail server. */
  send(mail: OutgoingMail): void {
    const transport = this.transport;
    if (!transport) return;
    transport
      .sendMail({ from: this.settings.from, to: mail.to, subject: mail.subject, text: mail.text })
      .catch((err: unknown) => this.logger.error({ err: { message: (err as Error).message } }, "account mail could not be sent"));
  }

  close(): void {
    this.transport?.close();
  }
}
