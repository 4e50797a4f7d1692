import { z } from "../zod";

/** Extensions section 9: rspamd's own words for what it would do with a message. */
export const SPAM_ACTIONS = ["no action", "greylist", "add header", "rewrite subject", "soft reject", "reject"] as const;
export const SpamAction = z.enum(SPAM_ACTIONS).openapi("SpamAction");
export type SpamAction = z.infer<typeof SpamAction>;

export const SpamSymbol = z
  .object({
    name: z.string(),
    score: z.number(),
    description: z.string().optional(),
  })
  .openapi("SpamSymbol");
export type SpamSymbol = z.infer<typeof SpamSymbol>;

/**
 * The spam score of an email (extensions section 9), asked of rspamd once, at intake: `scored`;
 * `unavailable` when rspamd did not answer within `spam.timeout` or was down (the email was
 * stored all the same); `disabled` when no rspamd is configured (`spam.rspamd_url`).
 */
export const SpamResult = z
  .discriminatedUnion("status", [
    z.object({
      status: z.literal("scored"),
      score: z.number(),
      required_score: z.number(),
      action: SpamAction,
      symbols: z.array(SpamSymbol),
    }),
    z.object({ status: z.literal("unavailable") }),
    z.object({ status: z.literal("disabled") }),
  ])
  .openapi("SpamResult", {
    description:
      "rspamd's verdict, asked once at intake (extensions section 9). `unavailable`: rspamd was down or did not answer within " +
      "`spam.timeout`; `disabled`: no rspamd is configured. The score never refused, delayed past its budget or changed the message.",
  });
export type SpamResult = z.infer<typeof SpamResult>;

/** The summaries' `spam_score`: the score when scored, else null. */
export const spamScoreOf = (spam: SpamResult): number | null => (spam.status === "scored" ? spam.score : null);

/** The summaries' `spam_required_score`: rspamd's required score when scored, else null. */
export const spamRequiredScoreOf = (spam: SpamResult): number | null => (spam.status === "scored" ? spam.required_score : null);
