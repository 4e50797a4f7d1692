import { testDatabaseUrl, waitFor } from "@burnbox/test-kit";
import { createPool } from "../src/data";

/** Ends one backend of the pool from another connection, as a PostgreSQL restart or failover does. */
async function terminate(pool: ReturnType<typeof createPool>, pid: number): Promise<void> {
  const killer = createPool(testDatabaseUrl("postgres"), 2);
  try {
    await killer.query("SELECT pg_terminate_backend($1)", [pid]);
  } finally {
    await killer.end();
  }
}

describe("the service pool when PostgreSQL drops its connections", () => {
  it("when a checked-out connection is cut between statements, then the process lives on and the pool serves the next caller on a new connection", async () => {
    const warnings: string[] = [];
    const logger = { warn: (_o: unknown, msg: string) => warnings.push(msg) } as unknown as Parameters<typeof createPool>[2];
    const pool = createPool(testDatabaseUrl("postgres"), 2, logger);
    try {
      const client = await pool.connect();
      const { rows } = await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
      const pid = (rows[0] as { pid: number }).pid;
      await terminate(pool, pid);
      // without a listener on the checked-out client, node-postgres's error event would end the process here
      await waitFor(() => warnings.includes("postgres connection lost"), { what: "the lost connection to be reported" });
      await expect(client.query("SELECT 1")).rejects.toThrow();
      client.release();
      const after = await pool.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
      expect((after.rows[0] as { pid: number }).pid).not.toBe(pid);
    } finally {
      await pool.end();
    }
  });

  it("when idle connections are cut, then the next statements run on new ones", async () => {
    const pool = createPool(testDatabaseUrl("postgres"), 2);
    try {
      const a = await pool.connect();
      const b = await pool.connect();
      const pids = await Promise.all(
        [a, b].map(async (c) => (await c.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]?.pid),
      );
      a.release();
      b.release();
      for (const pid of pids) await terminate(pool, pid as number);
      await waitFor(() => pool.totalCount === 0, { what: "the pool to drop its dead connections" });
      const results = await Promise.all([1, 2, 3].map((n) => pool.query<{ n: number }>("SELECT $1::int AS n", [n])));
      expect(results.map((r) => r.rows[0]?.n)).toEqual([1, 2, 3]);
    } finally {
      await pool.end();
    }
  });
});
