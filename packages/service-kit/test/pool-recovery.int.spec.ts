import { connect, createServer, type Server, type Socket } from "node:net";
import { testDatabaseUrl, waitFor } from "@burnbox/test-kit";
import { createPool } from "../src/data";

/**
 * A TCP relay to the test PostgreSQL whose open connections can be made to go silent, as behind a
 * frozen host or a network path that drops packets without a reset: nothing is forwarded on them
 * any more, and nothing closes them. New connections are relayed as usual.
 */
class SilenceableRelay {
  private readonly target = new URL(testDatabaseUrl("postgres"));
  private readonly pairs: Array<{ client: Socket; upstream: Socket; silenced: boolean }> = [];
  private readonly server: Server = createServer((client) => this.relay(client));
  /** Connections the pool itself closed while they were silenced. */
  droppedByPool = 0;

  static async start(): Promise<SilenceableRelay> {
    const relay = new SilenceableRelay();
    await new Promise<void>((resolve) => relay.server.listen(0, "127.0.0.1", resolve));
    return relay;
  }

  private relay(client: Socket): void {
    const upstream = connect(Number(this.target.port || 5432), this.target.hostname);
    const pair = { client, upstream, silenced: false };
    this.pairs.push(pair);
    client.pipe(upstream);
    upstream.pipe(client);
    client.on("close", () => {
      if (pair.silenced) this.droppedByPool += 1;
      upstream.destroy();
    });
    upstream.on("close", () => client.destroy());
    client.on("error", () => undefined);
    upstream.on("error", () => undefined);
  }

  url(): string {
    const url = new URL(testDatabaseUrl("postgres"));
    url.hostname = "127.0.0.1";
    url.port = String((this.server.address() as { port: number }).port);
    return url.toString();
  }

  /** Every connection open now stops carrying anything, in both directions: what is sent is lost. */
  silence(): void {
    for (const pair of this.pairs) {
      pair.silenced = true;
      pair.client.unpipe(pair.upstream);
      pair.upstream.unpipe(pair.client);
      // unpiped streams stay paused until resumed: read and drop what arrives, so an end is seen
      pair.client.on("data", () => undefined).resume();
      pair.upstream.on("data", () => undefined).resume();
    }
  }

  async close(): Promise<void> {
    for (const { client, upstream } of this.pairs) {
      client.destroy();
      upstream.destroy();
    }
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

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

  describe("when PostgreSQL stops answering on a live connection", () => {
    let relay: SilenceableRelay;
    beforeEach(async () => {
      relay = await SilenceableRelay.start();
    });
    afterEach(() => relay.close());

    it("then the statement fails at the answer bound, the pool drops that connection, and the next caller is served on a new one", async () => {
      const pool = createPool(relay.url(), 2, undefined, { answerTimeoutMs: 300 });
      try {
        await pool.query("SELECT 1");
        relay.silence();
        await expect(pool.query("SELECT 2")).rejects.toThrow("Query read timeout");
        await waitFor(() => relay.droppedByPool === 1, { what: "the pool to close the silent connection" });
        const { rows } = await pool.query<{ n: number }>("SELECT 3 AS n");
        expect(rows).toEqual([{ n: 3 }]);
      } finally {
        await pool.end();
      }
    });

    it("then a connection released without an error after its statement went unanswered (a rolled-back transaction) is not handed out again", async () => {
      const pool = createPool(relay.url(), 1, undefined, { answerTimeoutMs: 300 });
      try {
        const client = await pool.connect();
        await client.query("BEGIN");
        relay.silence();
        await expect(client.query("SELECT 1")).rejects.toThrow("Query read timeout");
        // as Prisma's adapter releases a transaction's connection on rollback: without an error
        client.release();
        const { rows } = await pool.query<{ n: number }>("SELECT 4 AS n");
        expect(rows).toEqual([{ n: 4 }]);
        await waitFor(() => relay.droppedByPool === 1, { what: "the pool to close the silent connection" });
      } finally {
        await pool.end();
      }
    });

    it("then, with only a server statement timeout set, the client's bound defaults to it plus the grace", () => {
      const pool = createPool(relay.url(), 1, undefined, { statementTimeoutMs: 1_000 });
      const options = (pool as unknown as { options: { query_timeout?: number; statement_timeout?: number } }).options;
      expect(options).toMatchObject({ statement_timeout: 1_000, query_timeout: 6_000 });
      return pool.end();
    });
  });
});
