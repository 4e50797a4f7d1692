import path from "node:path";
import { randomUUID } from "node:crypto";
import type { Pool, PoolClient } from "pg";
import { jetstream } from "@nats-io/jetstream";
import type { NatsConnection } from "@nats-io/nats-core";
import { deleteNamespaceStreams, testDatabaseUrl, testInfra, uniqueNamespace, waitFor } from "@burnbox/test-kit";
import { createUnitOfWork, prepareDatabase, type UnitOfWork } from "../src/data";
import {
  BroadcastCache,
  connectNats,
  ensureStreams,
  startOutboxRelay,
  type ChangeLog,
  type Invalidations,
  type OutboxRelay,
} from "../src/messaging";
import { createLogger } from "../src/runtime";

const logger = createLogger({ service: "kit-test", level: "silent" });
const MIGRATIONS = path.join(__dirname, "fixtures", "migrations");

/**
 * A fixture service written the way services are: a repository, a unit of work, use cases. Its
 * write paths are new to the kit; none of them, nor the test, calls an invalidation.
 */
interface Sql {
  query(text: string, values: unknown[]): Promise<{ rows: Array<Record<string, unknown>>; rowCount: number | null }>;
}

/** The change of widgets that commits no event, recorded by the repository. */
const WIDGET_RENAMED = "widgets.renamed";

class WidgetRepository {
  constructor(
    private readonly db: Sql,
    private readonly changes?: ChangeLog,
  ) {}

  async add(id: string, name: string): Promise<void> {
    await this.db.query("INSERT INTO widgets (id, name) VALUES ($1, $2)", [id, name]);
  }

  async rename(id: string, name: string): Promise<void> {
    await this.db.query("UPDATE widgets SET name = $2 WHERE id = $1", [id, name]);
    this.changes?.record({ type: WIDGET_RENAMED, org_id: null, team_id: null, data: { id } });
  }

  async remove(id: string): Promise<void> {
    await this.db.query("DELETE FROM widgets WHERE id = $1", [id]);
  }

  async name(id: string): Promise<string | null> {
    const { rows } = await this.db.query("SELECT name FROM widgets WHERE id = $1", [id]);
    return (rows[0]?.name as string | undefined) ?? null;
  }
}

/** A transaction on one pooled client, with the raw-statement shape the unit of work writes the outbox with. */
type Tx = Sql & { $executeRaw(strings: TemplateStringsArray, ...values: unknown[]): Promise<number> };

function txOf(c: PoolClient): Tx {
  return {
    query: (text, values) => c.query(text, values),
    $executeRaw: async (strings, ...values) =>
      (
        await c.query(
          strings.reduce((q, s, i) => `${q}$${i}${s}`),
          values,
        )
      ).rowCount ?? 0,
  };
}

function fixtureData(pool: Pool, relay: OutboxRelay, ns: string, nc: NatsConnection) {
  return createUnitOfWork({
    client: pool,
    transaction: async <T>(fn: (tx: Tx) => Promise<T>): Promise<T> => {
      const c = await pool.connect();
      try {
        await c.query("BEGIN");
        const value = await fn(txOf(c));
        await c.query("COMMIT");
        return value;
      } catch (err) {
        await c.query("ROLLBACK");
        throw err;
      } finally {
        c.release();
      }
    },
    repositories: (db: Sql, changes?: ChangeLog) => ({ widgets: new WidgetRepository(db, changes) }),
    relay,
    namespace: ns,
    changes: { nc },
  });
}
type FixtureData = UnitOfWork<{ widgets: WidgetRepository }>;

// the fixture's use cases: a rename (a change without an event) and a retirement (an event)
const renameWidget = (data: FixtureData, id: string, name: string) => data.write((repos) => repos.widgets.rename(id, name));
const retireWidget = (data: FixtureData, id: string) =>
  data.write(async (repos, events) => {
    await repos.widgets.remove(id);
    events.event("inbox.deleted", {
      org_id: null,
      team_id: null,
      data: { inbox_id: id, team_id: randomUUID(), full_address: `${id}@x.test`, deleted_at: new Date().toISOString() },
    });
  });

/** The cache of widget names: it declares what drops it, by key where the change names one. */
const WIDGET_CHANGES: Invalidations = {
  [WIDGET_RENAMED]: (c) => [(c.data as { id: string }).id],
  "inbox.deleted": (c) => [(c.data as { inbox_id: string }).inbox_id],
};

describe("caches that declare their invalidation, on real Postgres and NATS", () => {
  const url = testDatabaseUrl(`bbtest_kit_${uniqueNamespace("")}`);
  const ns = uniqueNamespace("caches");
  let pool: Pool;
  let writer: NatsConnection;
  let replica: NatsConnection;
  let relay: OutboxRelay;
  let data: FixtureData;
  let cache: BroadcastCache<string | null>;
  let reads = 0;

  /** Replica B's read of a widget's name, through its cache (a minute's life: only a change drops it). */
  const nameOnReplica = (id: string) =>
    cache.get(id, () => {
      reads++;
      return data.repos.widgets.name(id);
    });

  beforeAll(async () => {
    pool = await prepareDatabase(url, MIGRATIONS, logger);
    writer = await connectNats(testInfra.natsUrl, "fixture-replica-a");
    replica = await connectNats(testInfra.natsUrl, "fixture-replica-b");
    await ensureStreams(writer, ns);
    relay = startOutboxRelay({ pool, js: jetstream(writer), logger });
    data = fixtureData(pool, relay, ns, writer);
    cache = new BroadcastCache(replica, ns, {
      invalidatedBy: WIDGET_CHANGES,
      maxAgeMs: 60_000,
      maxEntries: 100,
      onlyWhileSubscribed: true,
    });
    await waitFor(() => cache.active, { what: "replica B's subscriptions" });
  });

  afterAll(async () => {
    await relay.stop();
    await deleteNamespaceStreams(writer, ns);
    await Promise.all([writer.close(), replica.close()]);
    await pool.end();
  });

  it("when a new write path records a change the cache registered, then replica B drops that key before write() returns, and keeps the others", async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    await data.write(async (repos) => {
      await repos.widgets.add(a, "old");
      await repos.widgets.add(b, "other");
    });
    expect(await nameOnReplica(a)).toBe("old");
    expect(await nameOnReplica(b)).toBe("other");
    const before = reads;
    expect(await nameOnReplica(a)).toBe("old"); // kept
    expect(reads).toBe(before);

    await renameWidget(data, a, "new");
    // write() returned after the server had the broadcast: it is ahead of anything B is sent next
    await replica.flush();
    expect(await nameOnReplica(a)).toBe("new");
    expect(await nameOnReplica(b)).toBe("other"); // not named by the change: still kept
    expect(reads).toBe(before + 1);
  });

  it("when a write path commits an event type the cache registered, then replica B drops the key the event names", async () => {
    const id = randomUUID();
    await data.write((repos) => repos.widgets.add(id, "kept"));
    expect(await nameOnReplica(id)).toBe("kept");
    await retireWidget(data, id);
    await replica.flush();
    expect(await nameOnReplica(id)).toBeNull();
  });

  it("when a commit changes nothing the cache registered, then replica B keeps its values", async () => {
    const id = randomUUID();
    await data.write((repos) => repos.widgets.add(id, "same"));
    expect(await nameOnReplica(id)).toBe("same");
    const before = reads;
    await data.write(async (repos, events) => {
      await repos.widgets.add(randomUUID(), "unrelated");
      events.audit({ ctx: null, action: "widget.added", org_id: null, target: { type: "widget", id } });
    });
    await replica.flush();
    expect(await nameOnReplica(id)).toBe("same");
    expect(reads).toBe(before);
  });
});
