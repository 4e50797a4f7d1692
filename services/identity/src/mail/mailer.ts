import nodemailer, { type Transporter } from "nodemailer";
import type { Logger } from "@burnbox/service-kit";
import type { IdentityConfig } from "../config";

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
}

/** Account mail (reset links, verification) through the configured SMTP server. */
export class Mailer {
  private readonly transport: Transporter | null;
  constructor(
    private readonly config: IdentityConfig["mail"],
    private readonly logger: Logger,
  ) {
    this.transport = config.smtp_host
      ? nodemailer.createTransport({
          host: config.smtp_host,
          port: config.smtp_port,
          secure: config.smtp_secure,
          ...(config.smtp_user ? { auth: { user: config.smtp_user, pass: config.smtp_password } } : {}),
        })
      : null;
    if (!this.transport) logger.warn("mail.smtp_host is not set: password-reset and verification mail will not be sent");
  }

  /** Sends in the background: the caller's answer never waits on (or reveals) the mail server. */
  send(mail: OutgoingMail): void {
    if (!this.transport) return;
    this.transport
      .sendMail({ from: this.config.from, to: mail.to, subject: mail.subject, text: mail.text })
      .catch((err: unknown) => this.logger.error({ err: { message: (err as Error).message } }, "account mail could not be sent"));
  }

  close(): void {
    this.transport?.close();
  }
}
