import type { SpamResult } from "../api";

/**
 * rspamd's own required score when none is known (its `reject` threshold, 15 unless a deployment
 * changes its actions): the summaries carry each mail's `spam_required_score`, but a live frame
 * from an intake older than that field does not. The reader shows each mail's own required score.
 */
export const DEFAULT_REQUIRED_SCORE = 15;

/** A score as rspamd prints it: two decimals at most, no trailing zeros. */
export const formatScore = (n: number): string => String(Math.round(n * 100) / 100);

/** true when a summary's score is over the required score (a marker in the mail list). */
export const overRequired = (score: number | null | undefined, required = DEFAULT_REQUIRED_SCORE): boolean =>
  typeof score === "number" && score >= required;

/** One line for the reader's header: "Spam score 3.2 of 15 (no action)", or why there is none. */
export function spamLine(spam: SpamResult): string {
  if (spam.status === "scored") return `Spam score ${formatScore(spam.score)} of ${formatScore(spam.required_score)} (${spam.action})`;
  if (spam.status === "unavailable") return "Not scored: the spam checker did not answer when this mail arrived";
  return "Not scored: spam scoring is off on this BurnBox";
}
