import type { Pool } from "pg";

/**
 * EXPLAIN (ANALYZE, BUFFERS) of one statement, the plan's lines joined. With `settings` (a `SET
 * LOCAL ...`, e.g. the inbox service's `SEARCH_SETTINGS`) the two run in one transaction, as the
 * service sends them, so the setting holds for the statement and for nothing after it.
 */
export async function explainPlan(pool: Pool, sql: string, params: unknown[], settings?: string): Promise<string> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    if (settings) await client.query(settings);
    const { rows } = await client.query<{ "QUERY PLAN": string }>(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params);
    await client.query("COMMIT");
    return rows.map((r) => r["QUERY PLAN"]).join("\n");
  } finally {
    client.release();
  }
}
