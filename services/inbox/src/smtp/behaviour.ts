import { randomUUID } from "node:crypto";
import { setTimeout as sleepMs } from "node:timers/promises";
import type { SMTPServerSession } from "smtp-server";
import type { Logger } from "@burnbox/service-kit/runtime";
import type { InboxDeps } from "../domain/deps";
import type { Delivery } from "../domain/emails/resolve-recipient.use-case";
import {
  DEFERRED,
  TOO_BIG,
  attemptKey,
  declaredSizeOf,
  deferred,
  heldForMs,
  messageIdOf,
  rcptVerdict,
  tooBigFor,
  type BehaviourReply,
} from "../domain/smtp/behaviour-rules";
import type { StoredTranscript } from "../domain/smtp/stored-transcript";
import type { TranscriptRecorder } from "./transcript";

/** The reply line as sent. */
const lineOf = (r: BehaviourReply) => `${r.code} ${r.text}`;

/**
 * The inboxes' SMTP behaviours (extensions section 8) as the intake applies them, with the log of
 * what they refused. A recipient's behaviour comes with its delivery (read at RCPT TO, from the
 * recipient cache that a change of it drops on every replica), so a transaction keeps the
 * behaviour it started with. Mail to inboxes without a behaviour costs one check per step.
 */
export class SmtpBehaviours {
  constructor(
    private readonly deps: InboxDeps,
    private readonly logger: Logger,
    private readonly recorder: TranscriptRecorder,
  ) {}

  /**
   * The reply to RCPT TO for the delivery's inbox (`reject_rcpt`, or 552 for a declared SIZE above
   * `max_size_bytes`), logged before it is sent; null to accept.
   */
  async atRcpt(session: SMTPServerSession, delivery: Delivery): Promise<BehaviourReply | null> {
    if (!delivery.behaviour) return null;
    const mailFrom = session.envelope.mailFrom ? session.envelope.mailFrom : null;
    const verdict = rcptVerdict(delivery.behaviour, declaredSizeOf(mailFrom ? mailFrom.args : null));
    if (verdict) await this.log(session, [delivery], verdict, null, 0);
    return verdict;
  }

  /**
   * The refusal at the end of DATA that the recipients' behaviours call for, logged for each of
   * them before it is sent: 552 for a message above an inbox's `max_size_bytes`, else 451 while
   * an inbox's `defer_first` still defers this message (the attempt counted in the store every
   * replica shares); null to go on and store it. Rejects when the count cannot be kept (451).
   * `replyAt`: when a `delay_ms` lets the reply go (its time in the transcripts).
   */
  async atDataEnd(session: SMTPServerSession, deliveries: readonly Delivery[], raw: Buffer, replyAt = 0): Promise<BehaviourReply | null> {
    const shaped = deliveries.filter((d) => d.behaviour);
    if (shaped.length === 0) return null;
    const messageId = messageIdOf(raw);
    if (tooBigFor(shaped, raw.length)) {
      await this.log(session, shaped, TOO_BIG, messageId, replyAt);
      return TOO_BIG;
    }
    const deferring = shaped.filter((d) => d.behaviour?.defer_first != null);
    if (deferring.length === 0) return null;
    const mailFrom = this.mailFromOf(session);
    const counts = await this.deps.attempts.count(
      deferring.map((d) => attemptKey({ inboxId: d.inboxId, mailFrom, rcptTo: d.recipient, messageId })),
    );
    if (!deferring.some((d, i) => deferred(d.behaviour, counts[i] ?? Number.MAX_SAFE_INTEGER))) return null;
    await this.log(session, shaped, DEFERRED, messageId, replyAt);
    return DEFERRED;
  }

  /**
   * When the final reply to DATA may go (`until`, ms since the epoch) and a promise of it: the
   * longest `delay_ms` of the recipients' inboxes after now (the end of the body); null when none
   * holds it. Never early: a timer may fire a little before its time, so the clock is read again.
   */
  hold(deliveries: readonly Delivery[]): { until: number; done: Promise<void> } | null {
    const ms = heldForMs(deliveries);
    if (ms <= 0) return null;
    const until = this.deps.now() + ms;
    const done = (async () => {
      for (let left = ms; left > 0; left = until - this.deps.now()) await sleepMs(left);
    })();
    return { until, done };
  }

  /**
   * The transcript of the session's transaction as the delivery's inbox may see it (its own RCPT
   * TO only), ending with `reply` (the reply about to be sent), timed when it goes: now, or when
   * a `delay_ms` lets it (`notBefore`).
   */
  transcript(session: SMTPServerSession, delivery: Delivery, reply: string, notBefore = 0): StoredTranscript {
    return this.recorder.transcript(session, delivery.inboxId, reply, notBefore);
  }

  private mailFromOf(session: SMTPServerSession): string {
    return session.envelope.mailFrom ? session.envelope.mailFrom.address : "";
  }

  /** Records the attempt for each of `deliveries`; a failure to record is logged, never the sender's problem. */
  private async log(
    session: SMTPServerSession,
    deliveries: readonly Delivery[],
    reply: BehaviourReply,
    messageId: string | null,
    replyAt: number,
  ): Promise<void> {
    const line = lineOf(reply);
    const at = new Date(Math.max(this.deps.now(), replyAt));
    const mailFrom = this.mailFromOf(session);
    await Promise.all(
      deliveries.map((d) =>
        this.deps.data.hot.smtpLog
          .record({
            id: randomUUID(),
            scope: d.scope,
            inboxId: d.inboxId,
            at,
            mailFrom,
            rcptTo: d.recipient,
            messageId,
            code: reply.code,
            reply: line,
            transcript: this.transcript(session, d, line, replyAt),
          })
          .catch((err: unknown) => this.logger.error({ err, inbox_id: d.inboxId }, "could not record a refused SMTP attempt")),
      ),
    );
  }
}
