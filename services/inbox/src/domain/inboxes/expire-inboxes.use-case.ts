import type { InboxDeps } from "../deps";

/**
 * Removes up to `batch` inboxes whose TTL has lapsed, with their mail, emitting `inbox.expired`
 * for each in the same transaction; returns how many. Safe to run on several replicas at once
 * (the repository claims rows with SKIP LOCKED): no inbox is expired twice.
 */
export async function expireInboxes(deps: InboxDeps, batch = 200): Promise<number> {
  const now = new Date(deps.now());
  const expired = await deps.data.write(async (repos, events) => {
    const rows = await repos.inboxes.removeExpired(now, batch);
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
  await Promise.all(expired.map((r) => deps.storage.removeFolder(r.id)));
  return expired.length;
}
