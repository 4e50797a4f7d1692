import { randomUUID } from "node:crypto";
import { parseDurationMs } from "@burnbox/contracts";
import type { Logger } from "@burnbox/service-kit/runtime";
import type { ClaimedOutbound } from "../../data/outbound.repository";
import type { InboxDeps } from "../deps";
import type { MailSender, SmtpAnswer, SmtpTarget } from "./mail-sender";
import { attemptVerdict, retryDelayMs } from "./outbound-rules";

/** What the outbound worker needs besides the service's deps. */
export interface DeliveryDeps {
  sender: MailSender;
  /** The platform mailer for one attempt (outbound-targets.ts `relayTarget`). */
  relay: () => Promise<SmtpTarget | SmtpAnswer>;
  intake: SmtpTarget;
  /** Signs a message for its sending domain (DKIM); the bytes unchanged when the domain has no key. */
  sign?: (raw: Buffer, m: ClaimedOutbound) => Promise<Buffer>;
  /** Test seam: runs after the relay's answer and before the row records it (a crash test stops the worker here). */
  afterAnswer?: (m: ClaimedOutbound, answer: SmtpAnswer) => Promise<void>;
  logger: Logger;
}

const BATCH = 10;

const isSession = (x: unknown): x is { send: unknown } => typeof (x as { send?: unknown }).send === "function";

/**
 * One pass of the outbound queue (extensions 10): recovers what a stopped worker left, then claims
 * and delivers what is due. Returns how many messages it handled.
 *
 * Never sent twice for one `outbound_id`. A row moves queued -> claimed -> sending -> sent | failed
 * (or back to queued for a retry), each step a committed, fenced update (`claim_token`):
 * - `claimed` is taken with a lease, before any connection. A worker that stops while it holds a
 *   claim has sent nothing, so once the lease lapses another worker claims it again.
 * - `sending` is committed after the session is open (greeting, TLS, login) and before MAIL FROM.
 *   From then on the relay may take the message at any moment, and its 250 may come just before
 *   the worker stops, before the row says `sent`. Such a row (lease lapsed while `sending`) is
 *   therefore never delivered again: it ends as `sent` when every recipient is one of BurnBox's own
 *   inboxes and each holds a mail with the message's Message-ID (fixed at queue time, so it can be
 *   looked for), else as `failed` with "outcome unknown". At most once, and a lost 250 costs a
 *   `failed` entry, never a second copy.
 * - A retry after a 4xx or a connection failure goes only to the recipients not yet delivered to
 *   (`delivered`), so a message split between the intake and the relay is not sent twice to either.
 */
export async function deliverOutbound(deps: InboxDeps, dd: DeliveryDeps): Promise<number> {
  const now = () => new Date(deps.now());
  const repo = deps.data.repos.outbound;
  const leaseMs = parseDurationMs(deps.config.outbound.lease);
  for (const lapsed of await repo.lapsedSending(now(), BATCH)) {
    const reply = lapsed.arrived
      ? "delivered: found in the recipient inboxes after the sender stopped"
      : "outcome unknown: the sender stopped during the SMTP transaction; not sent again";
    await repo.finish(lapsed.id, lapsed.token, { state: lapsed.arrived ? "sent" : "failed", reply, at: now() });
  }
  const claimed = await repo.claim(now(), new Date(deps.now() + leaseMs), BATCH, randomUUID());
  for (const m of claimed) await deliverOne(deps, dd, m, leaseMs);
  return claimed.length;
}

async function deliverOne(deps: InboxDeps, dd: DeliveryDeps, m: ClaimedOutbound, leaseMs: number): Promise<void> {
  const repo = deps.data.repos.outbound;
  const timeoutMs = parseDurationMs(deps.config.outbound.attempt_timeout);
  const local = await repo.localInboxes(m.recipients);
  const groups: Array<{ to: string[]; target: () => Promise<SmtpTarget | SmtpAnswer> }> = [
    { to: m.recipients.filter((r) => local.has(r)), target: () => Promise.resolve(dd.intake) },
    { to: m.recipients.filter((r) => !local.has(r)), target: dd.relay },
  ].filter((g) => g.to.length > 0);
  const raw = dd.sign ? await dd.sign(m.raw, m) : m.raw;
  const delivered: string[] = [];
  let last: SmtpAnswer = { code: null, reply: "no recipients" };
  let began = false;
  for (const g of groups) {
    const target = await g.target();
    const session = "address" in target ? await dd.sender.open(target, timeoutMs) : target;
    if (!isSession(session)) {
      last = session;
      break;
    }
    try {
      if (!began) {
        // committed before MAIL FROM: from here on this claim is never delivered again by anyone
        if (!(await repo.markSending(m.id, m.token, new Date(deps.now() + leaseMs)))) return;
        began = true;
      }
      last = await session.send({ from: m.mailFrom, to: g.to }, raw);
    } finally {
      session.close();
    }
    if (dd.afterAnswer) await dd.afterAnswer(m, last);
    if (last.code === null || last.code >= 300) break;
    delivered.push(...g.to);
  }
  const done = delivered.length === m.recipients.length;
  const verdict = done ? "sent" : attemptVerdict(last.code, m.attempts, deps.config.outbound.max_attempts);
  const at = new Date(deps.now());
  const reply = last.reply.slice(0, 2000);
  if (verdict === "retry") {
    await repo.finish(m.id, m.token, { state: "queued", reply, retryAt: new Date(deps.now() + retryDelayMs(m.attempts + 1)), delivered });
  } else {
    await repo.finish(m.id, m.token, { state: verdict, reply, at });
  }
  dd.logger.info({ outbound_id: m.id, message_id: m.messageId, attempt: m.attempts, outcome: verdict, reply }, "outbound attempt");
}
