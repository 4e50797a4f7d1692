import type { Client } from "./prisma";

export interface InboxCounts {
  email_count: number;
  unread_count: number;
}

export const NO_MAIL: InboxCounts = { email_count: 0, unread_count: 0 };

/**
 * Email and unread counts of some inboxes, from the counts migration 0012's triggers keep (up to 16
 * rows per inbox, one per writing connection's slot, added up here): a few rows per inbox whatever
 * it holds, and no single counter row for a hot inbox's deliveries to wait on.
 */
export async function countsOf(db: Client, inboxIds: string[]): Promise<Map<string, InboxCounts>> {
  const out = new Map<string, InboxCounts>(inboxIds.map((id) => [id, NO_MAIL]));
  if (inboxIds.length === 0) return out;
  const rows = await db.$queryRaw<Array<{ inbox_id: string; total: bigint; unread: bigint }>>`
    SELECT inbox_id::text AS inbox_id, sum(emails)::bigint AS total, sum(unread)::bigint AS unread
    FROM inbox_email_counts WHERE inbox_id = ANY(${inboxIds}::uuid[]) GROUP BY inbox_id`;
  for (const r of rows) out.set(r.inbox_id, { email_count: Number(r.total), unread_count: Number(r.unread) });
  return out;
}
