import type { SpamResult } from "@burnbox/contracts";

/** Who handed the message over, as rspamd is told it: the client's address, its HELO, MAIL FROM and RCPT TO. */
export interface SpamOrigin {
  ip: string;
  helo: string | null;
  sender: string;
  recipients: readonly string[];
}

/**
 * Asks for a message's spam score (extensions section 9), once, at intake. Never throws and never
 * takes longer than its budget: past it, or when the scanner is down, the answer is `unavailable`.
 */
export interface SpamScorer {
  score(raw: Buffer, origin: SpamOrigin): Promise<SpamResult>;
}

/** No scanner configured (`spam.rspamd_url` unset): every email is stored `disabled`. */
export const spamScoringOff: SpamScorer = { score: () => Promise.resolve({ status: "disabled" }) };
