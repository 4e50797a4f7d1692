import type { InboxDeps } from "../deps";

export interface ExpireBatches {
  /** Inboxes removed per transaction (each with its `inbox.expired` event). */
  inboxes?: number;
  /** Emails deleted per transaction while the expired inboxes are emptied. */
  emails?: number;
  /** Folders of stored mail removed at once after a batch of inboxes. */
  folders?: number;
  /** Awaited between two batches: the cleanup worker rests there, so the intake and the reads keep the database. */
  rest?: () => Promise<void>;
}

/**
 * Removes up to `inboxes` inboxes whose TTL has lapsed, with their mail, emitting `inbox.expired`
 * for each in the same transaction; returns how many. The mail goes first, in transactions of at
 * most `emails` emails (so a full inbox, or a hundred thousand of them, never makes one long
 * delete); then the emptied inboxes go, and their stored files after the commit, a few folders at
 * a time. Safe to run on several replicas at once (the repository claims rows with SKIP LOCKED):
 * no inbox is expired twice.
 */
export async function expireInboxes(deps: InboxDeps, batches: ExpireBatches = {}): Promise<number> {
  const { inboxes = 200, emails = 1000, folders = 8, rest } = batches;
  const now = new Date(deps.now());
  for (;;) {
    const deleted = await deps.data.write((repos) => repos.inboxes.removeMailOfExpired(now, emails));
    if (deleted < emails) break;
    await rest?.();
  }
  const expired = await deps.data.write(async (repos, events) => {
    const rows = await repos.inboxes.removeExpired(now, inboxes);
    for (const r of rows) {
      events.event("inbox.expired", {
        org_id: r.orgId,
        team_id: r.teamId,
        data: { inbox_id: r.id, team_id: r.teamId, full_address: r.fullAddress, expired_at: now.toISOString(), created_by: r.createdBy },
      });
    }
    return rows;
  });
  // files after the commit: a failed removal leaves orphaned files, never a row without its mail
  const queue = expired.map((r) => r.id);
  await Promise.all(
    Array.from({ length: Math.min(folders, queue.length) }, async () => {
      for (let id = queue.shift(); id !== undefined; id = queue.shift()) await deps.storage.removeFolder(id);
    }),
  );
  return expired.length;
}
