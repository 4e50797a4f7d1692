import { WAIT_LIMITS, type RateLimitBody, type WaitForEmailsQuery, type WaitForEmailsResult } from "@burnbox/contracts";
import type { TeamScope } from "@burnbox/service-kit/data";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import { storedHeaders, toEmailSummary, type EmailRow } from "../../data/email.repository";
import type { InboxDeps } from "../deps";
import { authorizeInbox } from "../inboxes/inbox-access";
import type { HeldWait, MailWaits } from "./wait/mail-waits";
import { waitCandidateOf } from "./wait/wait-candidate";
import { MatchBudget, type MatchTurns } from "./wait/match-turns";
import { afterEmail, afterTime, columnsFor, matcherFor, type WaitAfter, type WaitCandidate } from "./wait/wait-matcher";
import type { WaitSlots } from "./wait/wait-slots";

/** What a wait needs beyond the use cases' deps: the waits held in this process, the per-user cap, the matching turns. */
export interface WaitDeps {
  waits: MailWaits;
  slots: WaitSlots;
  turns: MatchTurns;
}

/** How many emails one page of the first read holds: fewer when the bodies come along (each up to 64 KiB of text). */
const PAGE_ROWS = { withBodies: 10, withoutBodies: 200 } as const;

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

/** A matched row as the answer keeps it: its summary's columns, without the bodies and headers the matchers read. */
const kept = (row: EmailRow): EmailRow => ({ ...row, bodyText: null, bodyHtml: null, headers: {} });

type Outcome = "matched" | "timeout" | "drained" | "abandoned" | "deleted" | "expired" | "failed";

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
 * `GET /inboxes/:id/emails/wait` (extensions section 1). Takes the user's slot, then reads the
 * inbox's mail once, page by page, with only the columns its matchers read; when fewer than
 * `count` match, holds the request (no database connection, no timer but its own) until the
 * inbox's new mail makes `count`, `timeout` passes, the inbox is deleted or expires (404), or the
 * process drains (answered with what matched, `timed_out: true`). Matching runs in the process's
 * turns (`MatchTurns`), never holding the event loop for long, within `WAIT_LIMITS.matchBudgetMs`
 * of CPU per wait (beyond: 400).
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
  // patterns compile here, bounded: an invalid or too costly one is a 400 before anything is held
  const matchesAfter = (after: WaitAfter | null) => matcherFor({ ...matchers, after });
  matchesAfter(null);
  // the slot before any read: a user's 101st wait costs the database nothing
  const release = await wd.slots.acquire(ctx.actor.user_id, timeout);
  if (!release) return { rateLimited: { error: "too many waits held at once, try again later", retry_after: 1 } };
  const budget = new MatchBudget(WAIT_LIMITS.matchBudgetMs);
  const timers: NodeJS.Timeout[] = [];
  let remove: (() => void) | null = null;
  try {
    const after = await resolveSince(deps, scope, inboxId, since);
    const matches = matchesAfter(after);
    const columns = columnsFor(matchers);
    const limit = columns.bodies ? PAGE_ROWS.withBodies : PAGE_ROWS.withoutBodies;

    const found = new Map<string, EmailRow>();
    const take = async (rows: readonly EmailRow[]) => {
      const fresh = rows.filter((row) => !found.has(row.id));
      for (const row of await wd.turns.filter(fresh, (r) => matches(candidateOf(r)), budget)) found.set(row.id, kept(row));
    };
    const answer = (): WaitForEmailsResult => {
      const ordered = [...found.values()].sort((a, b) => a.receivedAt.getTime() - b.receivedAt.getTime() || (a.id < b.id ? -1 : 1));
      return { data: ordered.slice(0, count).map(toEmailSummary), matched: found.size, timed_out: found.size < count };
    };
    /** Every page of the inbox's mail after the wait's point, matched; the inbox's end (null: gone). */
    const readAll = async (): Promise<Date | null> => {
      let expiresAt: Date;
      let from: string | null = null;
      do {
        const page = await deps.data.hot.emails.firstRead(scope, {
          inboxId,
          after,
          unread: matchers.unread,
          columns,
          page: { from, limit },
        });
        if (!page) return null;
        expiresAt = page.expiresAt;
        // matched before the next page is read: one page's rows in memory at a time
        await take(page.rows);
        from = page.next;
      } while (from !== null);
      return expiresAt;
    };

    let settle!: (outcome: Outcome) => void;
    const outcome = new Promise<Outcome>((resolve) => {
      settle = resolve;
    });
    // matching new mail failed (its budget spent: a 400): the wait ends with that
    let failure: unknown = null;
    const failed = (err: unknown) => {
      failure = err;
      settle("failed");
    };
    let loaded = false;
    const held: HeldWait = {
      inboxId,
      scope,
      columns,
      offer: (rows) => {
        take(rows)
          .then(() => {
            if (loaded && found.size >= count) settle("matched");
          })
          .catch(failed);
      },
      gone: (reason) => settle(reason),
      drain: () => settle("drained"),
      recheck: async () => {
        // also while the first read is out: its snapshot may predate the missed mail
        if ((await readAll()) === null) settle("deleted");
        else if (loaded && found.size >= count) settle("matched");
      },
    };
    // held before the first read: mail committed after that read's snapshot still wakes it
    remove = wd.waits.add(held);
    await wd.waits.ready(inboxId);
    const expiresAt = await readAll();
    loaded = true;
    if (found.size >= count || timeout === 0) return answer();
    // read with the mail (null: the inbox is gone)
    if (!expiresAt) throw errors.notFound("inbox");

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
    if (end === "failed") throw failure;
    return answer();
  } finally {
    budget.stop();
    remove?.();
    for (const t of timers) clearTimeout(t);
    release();
  }
}
