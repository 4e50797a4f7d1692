import type { InboxDeps } from "../deps";

/** What one step of the cleanup did and how long it took (`ExpireBatches.onStep`). */
export interface ExpireStepReport {
  /** The step's transaction (claim, delete mail, delete emptied inboxes, events), in ms. */
  dbMs: number;
  /** Removing the step's files after the commit, in ms. */
  filesMs: number;
  emails: number;
  inboxes: number;
}

export interface ExpireBatches {
  /** Expired inboxes a step holds (and at most removes, each with its `inbox.expired` event). */
  inboxes?: number;
  /** Emails deleted per step (one transaction), whatever the size of one inbox. */
  emails?: number;
  /** Folders of removed inboxes swept at once after a step. */
  folders?: number;
  /** Awaited between two steps: the cleanup worker rests there, so the intake and the reads keep the database. */
  rest?: () => Promise<void>;
  /** Told of every step that did something (the worker's timings). */
  onStep?: (step: ExpireStepReport) => void;
}

/**
 * Removes the inboxes whose TTL has lapsed, with their mail, step by step until none is left;
 * returns how many inboxes it removed. Each step is one transaction that holds up to `inboxes`
 * expired inboxes, deletes up to `emails` of their emails (so a full inbox, or a hundred thousand
 * of them, never makes one long delete), and deletes the held inboxes it leaves empty, emitting
 * `inbox.expired` for each; after the commit, the files of the deleted rows go by their keys, and
 * the removed inboxes' folders are swept for anything left (a message whose row was never
 * committed). Safe to run on several replicas at once (the repository holds inboxes with SKIP
 * LOCKED): no inbox is expired twice.
 */
export async function expireInboxes(deps: InboxDeps, batches: ExpireBatches = {}): Promise<number> {
  const { inboxes = 200, emails = 1000, folders = 8, rest, onStep } = batches;
  const now = new Date(deps.now());
  let removed = 0;
  for (;;) {
    const t0 = performance.now();
    const step = await deps.data.write(async (repos, events) => {
      const done = await repos.inboxes.expireStep(now, { inboxes, emails });
      for (const r of done.removed) {
        events.event("inbox.expired", {
          org_id: r.orgId,
          team_id: r.teamId,
          data: { inbox_id: r.id, team_id: r.teamId, full_address: r.fullAddress, expired_at: now.toISOString(), created_by: r.createdBy },
        });
      }
      return done;
    });
    if (step.claimed === 0) break;
    const t1 = performance.now();
    // files after the commit: a failed removal leaves orphaned files, never a row without its mail
    await deps.storage.removeKeys(step.keys);
    const queue = step.removed.map((r) => r.id);
    await Promise.all(
      Array.from({ length: Math.min(folders, queue.length) }, async () => {
        for (let id = queue.shift(); id !== undefined; id = queue.shift()) await deps.storage.removeFolder(id);
      }),
    );
    removed += step.removed.length;
    onStep?.({ dbMs: t1 - t0, filesMs: performance.now() - t1, emails: step.emails, inboxes: step.removed.length });
    // nothing deleted although inboxes were held: leave them to the next cycle rather than spin
    if (step.emails === 0 && step.removed.length === 0) break;
    await rest?.();
  }
  return removed;
}
