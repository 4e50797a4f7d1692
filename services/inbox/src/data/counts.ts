import type { Client } from "./prisma";

export interface InboxCounts {
  email_count: number;
  unread_count: number;
}

export const NO_MAIL: InboxCounts = { email_count: 0, unread_count: 0 };

/**
 * Email and unread counts of some inboxes, counted from the emails (indexed by inbox) rather than
 * kept on the inbox row, where a hot inbox would serialise every delivery on its lock.
 */
export async function countsOf(db: Client, inboxIds: string[]): Promise<Map<string, InboxCounts>> {
  const out = new Map<string, InboxCounts>(inboxIds.map((id) => [id, NO_MAIL]));
  if (inboxIds.length === 0) return out;
  const rows = await db.$queryRaw<Array<{ inbox_id: string; total: bigint; unread: bigint }>>`
    SELECT inbox_id::text AS inbox_id, count(*) AS total, count(*) FILTER (WHERE NOT is_read) AS unread
    FROM emails WHERE inbox_id = ANY(${inboxIds}::uuid[]) GROUP BY inbox_id`;
  for (const r of rows) out.set(r.inbox_id, { email_count: Number(r.total), unread_count: Number(r.unread) });
  return out;
}
