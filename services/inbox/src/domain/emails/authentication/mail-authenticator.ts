import type { Authentication } from "@burnbox/contracts";

/** Where a message came from, as the SMTP session saw it. */
export interface SmtpOrigin {
  /** The connecting client's address. */
  ip: string;
  /** The name it gave in HELO/EHLO, if any. */
  helo: string | null;
  /** MAIL FROM; empty for the null sender. */
  sender: string;
}

/**
 * The port of the intake's authentication checks (extensions section 3): the verdicts for one
 * message, never a rejection (a failure is `temperror` in the verdicts), within the configured
 * DNS budget; null when the checks are turned off.
 */
export interface MailAuthenticator {
  check(raw: Buffer, origin: SmtpOrigin): Promise<Authentication | null>;
}

/** No checks: every message is stored with `authentication: null`. */
export const authenticationOff: MailAuthenticator = { check: () => Promise.resolve(null) };
