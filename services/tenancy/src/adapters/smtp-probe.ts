import net from "node:net";
import nodemailer from "nodemailer";
import type { PinnedTarget } from "@burnbox/service-kit/security";

/** What an SMTP check needs: the pinned target, the port and how to authenticate. */
export interface SmtpCheck {
  target: PinnedTarget;
  port: number;
  /** true: implicit TLS on 465, STARTTLS (required) on any other port; false: plain text. */
  tls: boolean;
  username?: string | undefined;
  password?: string | undefined;
  timeoutMs: number;
}

/** A failure with the message the caller may see: generic, never the server's words. */
export class ProbeFailure extends Error {}

/** nodemailer's error codes, as the generic message a caller may see. */
function failureOf(err: unknown): ProbeFailure {
  const code = (err as { code?: string }).code;
  switch (code) {
    case "EAUTH":
      return new ProbeFailure("authentication failed");
    case "ETLS":
      return new ProbeFailure("TLS negotiation failed");
    case "ETIMEDOUT":
    case "ESOCKET_TIMEOUT":
      return new ProbeFailure("timed out");
    case "ENOAUTH":
      return new ProbeFailure("server does not offer authentication");
    case "EPROTOCOL":
    case "EENVELOPE":
      return new ProbeFailure("not an SMTP server");
    default:
      return new ProbeFailure("connection failed");
  }
}

/**
 * nodemailer's `verify()` (greeting, EHLO, STARTTLS or implicit TLS, AUTH when a user name is
 * given, QUIT; no mail sent) against the pinned address: the transport's host is the checked
 * address, so nodemailer resolves nothing, and the TLS name (SNI, certificate check) stays the host
 * the caller gave. Every failure is a `ProbeFailure` with a generic message.
 */
export async function verifySmtp(c: SmtpCheck): Promise<string> {
  const implicit = c.tls && c.port === 465;
  const transport = nodemailer.createTransport({
    host: c.target.address,
    port: c.port,
    secure: implicit,
    requireTLS: c.tls && !implicit,
    ignoreTLS: !c.tls,
    name: "burnbox.probe",
    connectionTimeout: c.timeoutMs,
    greetingTimeout: c.timeoutMs,
    socketTimeout: c.timeoutMs,
    tls: net.isIP(c.target.host) ? {} : { servername: c.target.host },
    ...(c.username ? { auth: { user: c.username, pass: c.password ?? "" } } : {}),
  });
  try {
    await transport.verify();
    return c.username ? "SMTP connection and authentication successful" : "SMTP connection successful";
  } catch (err) {
    throw failureOf(err);
  } finally {
    transport.close();
  }
}
