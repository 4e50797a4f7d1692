/** Where one delivery attempt connects: the platform mailer (a relay) or BurnBox's own SMTP intake. */
export interface SmtpTarget {
  /** The name the settings give (TLS name, logs). */
  host: string;
  /** The checked address to connect to (a saved relay is pinned to it); the host otherwise. */
  address: string;
  port: number;
  /** Implicit TLS from the first byte. */
  secure: boolean;
  requireTls: boolean;
  ignoreTls: boolean;
  user: string;
  password: string;
}

/** An SMTP answer: its code (null when the connection failed without one) and its text. */
export interface SmtpAnswer {
  code: number | null;
  reply: string;
}

/** One open SMTP session, greeted and authenticated; nothing of the message has been said yet. */
export interface SmtpSession {
  /** MAIL FROM, RCPT TO each recipient, DATA: the final answer (a 2xx when at least one recipient took it). */
  send(envelope: { from: string; to: string[] }, raw: Buffer): Promise<SmtpAnswer>;
  close(): void;
}

/** Opens sessions (the adapter `adapters/smtp-sender.ts`); a failure to connect or log in is an answer too. */
export interface MailSender {
  open(target: SmtpTarget, timeoutMs: number): Promise<SmtpSession | SmtpAnswer>;
}

/** A domain's DKIM key, opened, for one message. Never logged. */
export interface SigningKey {
  domain: string;
  selector: string;
  /** PKCS#8 PEM. */
  privateKey: string;
}

/** Signs a message (the adapter `adapters/dkim-signer.ts`): the DKIM-Signature on top, the bytes below it unchanged. */
export interface MailSigner {
  sign(raw: Buffer, key: SigningKey): Promise<Buffer>;
}
