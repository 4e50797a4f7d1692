import type { RateLimitBody, WaitForEmailsQuery, WaitForEmailsResult } from "@burnbox/contracts";
import type { TeamScope } from "@burnbox/service-kit/data";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import { storedHeaders, toEmailSummary, type EmailRow } from "../../data/email.repository";
import type { InboxDeps } from "../deps";
import { authorizeInbox } from "../inboxes/inbox-access";
import type { HeldWait, MailWaits } from "./wait/mail-waits";
import { waitCandidateOf } from "./wait/wait-candidate";
import { afterEmail, afterTime, matcherFor, type WaitAfter, type WaitCandidate } from "./wait/wait-matcher";
import type { WaitSlots } from "./wait/wait-slots";

/** What a wait needs beyond the use cases' deps: the waits held in this process and the per-user cap. */
export interface WaitDeps {
  waits: MailWaits;
  slots: WaitSlots;
}

/**
 * What the matcher reads of a row, worked out once per row however many waits read it (a wake's
 * rows are shared by every wait on the inbox; the HTML's text is parsed once).
 */
const candidates = new WeakMap<EmailRow, WaitCandidate>();
function candidateOf(row: EmailRow): WaitCandidate {
  let c = candidates.get(row);
  if (!c) {
    c = waitCandidateOf({ ...row, headers: storedHeaders(row.headers) });
    candidates.set(row, c);
  }
  return c;
}

type Outcome = "matched" | "timeout" | "drained" | "abandoned" | "deleted" | "expired";

/** `since` as a point in the inbox's order; an email id that is not one of this inbox's is a 400. */
async function resolveSince(
  deps: InboxDeps,
  scope: TeamScope,
  inboxId: string,
  since: WaitForEmailsQuery["since"],
): Promise<WaitAfter | null> {
  if (!since) return null;
  if (since.kind === "time") return afterTime(since.at);
  const cursor = await deps.data.repos.emails.cursor(scope, inboxId, since.id);
  if (!cursor) {
    const message = "since must be an ISO 8601 time or the id of an email of this inbox";
    throw errors.validation(message, [{ path: "since", message }]);
  }
  return afterEmail(cursor);
}

/**
 * `GET /inboxes/:id/emails/wait` (extensions section 1). Reads the inbox's matching mail once;
 * when fewer than `count` match, holds the request (no database connection, no timer but its
 * own) until the inbox's new mail makes `count`, `timeout` passes, the inbox is deleted or
 * expires (404), or the process drains (answered with what matched, `timed_out: true`).
 */
export async function waitForEmails(
  deps: InboxDeps,
  wd: WaitDeps,
  ctx: RequestCtx,
  input: { inboxId: string; query: WaitForEmailsQuery; signal: AbortSignal },
): Promise<WaitForEmailsResult | { rateLimited: RateLimitBody }> {
  const { inboxId } = input;
  const { since, count, timeout, ...matchers } = input.query;
  // the inbox located and its mail read on the pool: through Prisma these were most of a wait's CPU
  const scope = await authorizeInbox(deps, ctx, await deps.data.hot.inboxes.locate(inboxId), "team.emails.view");
  const after = await resolveSince(deps, scope, inboxId, since);
  // patterns compile here: an invalid one is a 400 before anything is held
  const matches = matcherFor({ ...matchers, after });

  const found = new Map<string, EmailRow>();
  const take = (rows: readonly EmailRow[]) => {
    for (const row of rows) if (!found.has(row.id) && matches(candidateOf(row))) found.set(row.id, row);
  };
  const answer = (): WaitForEmailsResult => {
    const ordered = [...found.values()].sort((a, b) => a.receivedAt.getTime() - b.receivedAt.getTime() || (a.id < b.id ? -1 : 1));
    return { data: ordered.slice(0, count).map(toEmailSummary), matched: found.size, timed_out: found.size < count };
  };

  let settle!: (outcome: Outcome) => void;
  const outcome = new Promise<Outcome>((resolve) => {
    settle = resolve;
  });
  let loaded = false;
  const held: HeldWait = {
    inboxId,
    scope,
    offer: (rows) => {
      take(rows);
      if (loaded && found.size >= count) settle("matched");
    },
    gone: (reason) => settle(reason),
    drain: () => settle("drained"),
    recheck: async () => {
      // also while the first read is out: its snapshot may predate the missed mail
      const again = await deps.data.hot.emails.firstRead(scope, { inboxId, after, unread: matchers.unread });
      if (!again?.expiresAt) return settle("deleted");
      held.offer(again.rows);
    },
  };
  // held before the first read: mail committed after that read's snapshot still wakes it
  const remove = wd.waits.add(held);
  const timers: NodeJS.Timeout[] = [];
  let release: (() => void) | null = null;
  try {
    const first = await deps.data.hot.emails.firstRead(scope, { inboxId, after, unread: matchers.unread });
    take(first?.rows ?? []);
    loaded = true;
    if (found.size >= count || timeout === 0) return answer();
    // read with the mail (null: the inbox is gone)
    const expiresAt = first?.expiresAt;
    if (!expiresAt) throw errors.notFound("inbox");
    release = await wd.slots.acquire(ctx.actor.user_id, timeout);
    if (!release) return { rateLimited: { error: "too many waits held at once, try again later", retry_after: 1 } };

    timers.push(setTimeout(() => settle("timeout"), timeout));
    const armExpiry = (at: number) => {
      const inMs = at - deps.now();
      if (inMs >= timeout) return;
      timers.push(
        setTimeout(
          () => {
            // extended meanwhile? then wait for the new end
            deps.data.repos.inboxes
              .expiresAt(scope, inboxId)
              .then((now) => (now === null || now.getTime() <= deps.now() ? settle("expired") : armExpiry(now.getTime())))
              .catch(() => settle("expired"));
          },
          Math.max(0, inMs),
        ),
      );
    };
    armExpiry(expiresAt.getTime());
    const onAbort = () => settle("abandoned");
    input.signal.addEventListener("abort", onAbort, { once: true });
    if (input.signal.aborted) settle("abandoned");
    // mail that arrived between the first read and now was offered already
    if (found.size >= count) settle("matched");

    const end = await outcome;
    input.signal.removeEventListener("abort", onAbort);
    if (end === "deleted" || end === "expired") throw errors.notFound("inbox");
    return answer();
  } finally {
    remove();
    for (const t of timers) clearTimeout(t);
    release?.();
  }
}
