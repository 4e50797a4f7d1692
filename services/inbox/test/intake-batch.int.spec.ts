import { randomUUID } from "node:crypto";
import { subjects } from "@burnbox/contracts";
import { createPool, type TeamScope } from "@burnbox/service-kit/data";
import { newEvent, outboxRow } from "@burnbox/service-kit/messaging";
import type { Infra } from "@burnbox/service-kit/runtime";
import { waitFor, type TestService } from "@burnbox/test-kit";
import type { RunningService } from "../src/app";
import type { InboxConfig } from "../src/config";
import { IntakeRepository, type ReceivedEmail } from "../src/data/intake.repository";
import { createTestInbox, startInboxTestService } from "./inbox-test-service";

const DOMAIN = "mail.batch-test.example";
type Pool = NonNullable<Infra["pool"]>;

/**
 * The intake's group-committed write on the real Postgres: several messages in one statement, a
 * message refused (its inbox deleted since RCPT) or failing the whole statement without failing
 * the others of its batch, and every stored email with its outbox row.
 */
describe("the SMTP intake's batched write", () => {
  let t: TestService<InboxConfig, RunningService>;
  const scope: TeamScope = { orgId: randomUUID(), teamId: randomUUID() };
  /** The messages of each statement the repository under test ran. */
  let statements: number[];
  let kicks: number;
  let handed: string[];
  let repo: IntakeRepository;

  beforeAll(async () => {
    t = await startInboxTestService("batch");
  });

  beforeEach(() => {
    statements = [];
    kicks = 0;
    handed = [];
    const pool = t.infra.pool as Pool;
    // the real pool, with the statements the intake runs on it counted
    const counting = {
      query: (q: { name?: string; values?: unknown[] }) => {
        if (q.name === "intake-receive") statements.push(new Set(q.values?.[0] as number[]).size);
        return pool.query(q as never);
      },
    } as unknown as Pool;
    repo = new IntakeRepository(counting, {
      publishCommitted: (rows) => {
        kicks++;
        handed.push(...rows.map((r) => r.id));
      },
    });
  });

  afterAll(async () => {
    await t?.stop();
  });

  const inbox = (inScope: TeamScope = scope, expiresAt?: Date) =>
    createTestInbox(t.service.deps, inScope, { prefix: "b", domain: DOMAIN, ...(expiresAt ? { expiresAt } : {}) });

  /** One email of a message to `inboxId`, with `attachments` attachment rows and its event's outbox row. */
  function email(inboxId: string, opts: { attachments?: number; id?: string; scope?: TeamScope } = {}): ReceivedEmail {
    const id = opts.id ?? randomUUID();
    const s = opts.scope ?? scope;
    const receivedAt = new Date();
    const extracted = {
      codes: [{ value: "482913", context: "Your code is 482913" }],
      links: [{ url: `https://app.example.org/verify?email=${id}`, text: "Verify", kind: "verify" as const }],
    };
    const attachments = Array.from({ length: opts.attachments ?? 0 }, (_, i) => {
      const fileId = randomUUID();
      return { id: fileId, filename: `f${i}.txt`, contentType: "text/plain", sizeBytes: 3, storageKey: `${inboxId}/${id}/${fileId}` };
    });
    const event = newEvent("email.received", {
      org_id: s.orgId,
      team_id: s.teamId,
      data: {
        email_id: id,
        inbox_id: inboxId,
        team_id: s.teamId,
        from: "sender@example.org",
        to: "to@example.org",
        subject: `subject ${id}`,
        received_at: receivedAt.toISOString(),
        size_bytes: 100,
        created_by: randomUUID(),
        extracted,
        summary: {
          id,
          inbox_id: inboxId,
          from_address: "sender@example.org",
          subject: `subject ${id}`,
          snippet: "hello",
          has_attachments: attachments.length > 0,
          is_read: false,
          size_bytes: 100,
          received_at: receivedAt.toISOString(),
        },
      },
    });
    return {
      scope: s,
      email: {
        id,
        inboxId,
        messageId: `<${id}@example.org>`,
        fromAddress: "sender@example.org",
        toAddress: "to@example.org",
        subject: `subject ${id}`,
        snippet: "hello",
        bodyText: "hello, 'quoted' \"text\" {braces} \\ back",
        bodyHtml: null,
        headers: { subject: `subject ${id}`, "x-odd": 'a "b", {c}' },
        extracted,
        authentication: null,
        sizeBytes: 100,
        rawKey: `${inboxId}/${id}/message.eml`,
        receivedAt,
        attachments,
      },
      outbox: outboxRow(t.ns, event),
    };
  }

  const settled = (p: Promise<void>) =>
    p.then(
      () => "stored",
      (err: Error) => err.message,
    );

  type StoredRow = { id: string; inbox_id: string; body_text: string; headers: unknown; extracted: unknown; attachments: number };
  async function storedEmails(ids: string[]): Promise<StoredRow[]> {
    const { rows } = await (t.infra.pool as Pool).query<StoredRow>(
      `SELECT e.id::text, e.inbox_id::text, e.body_text, e.headers, e.extracted, (SELECT count(*)::int FROM attachments a WHERE a.email_id = e.id) AS attachments
       FROM emails e WHERE e.id = ANY($1::uuid[]) ORDER BY e.id`,
      [ids],
    );
    return rows;
  }

  async function outboxRows(ids: string[]): Promise<Array<{ id: string; subject: string; payload: unknown }>> {
    const { rows } = await (t.infra.pool as Pool).query<{ id: string; subject: string; payload: unknown }>(
      `SELECT id::text, subject, payload FROM outbox_events WHERE id = ANY($1::uuid[])`,
      [ids],
    );
    return rows;
  }

  it("when messages complete while a write is in flight, then the next statement stores them together, each with its attachments and outbox row", async () => {
    const a = await inbox();
    const b = await inbox();
    const messages = [
      [email(a.id)],
      [email(a.id, { attachments: 2 })],
      [email(b.id), email(a.id, { attachments: 1 })],
      ...Array.from({ length: 10 }, (_, i) => [email(i % 2 ? a.id : b.id)]),
    ];
    // submitted together: the first is written at once, alone; the others wait for it and go in one statement
    const results = await Promise.all(messages.map((m) => settled(repo.receive(m))));
    expect(results.every((r) => r === "stored")).toBe(true);
    expect(statements).toEqual([1, messages.length - 1]);
    expect(kicks).toBe(2);
    expect(handed.sort()).toEqual(
      messages
        .flat()
        .map((r) => r.outbox.id)
        .sort(),
    ); // every stored message's event, once

    const all = messages.flat();
    const rows = await storedEmails(all.map((r) => r.email.id));
    expect(rows).toHaveLength(all.length);
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const r of all) {
      expect(byId.get(r.email.id)).toEqual({
        id: r.email.id,
        inbox_id: r.email.inboxId,
        body_text: r.email.bodyText,
        headers: r.email.headers,
        extracted: r.email.extracted,
        attachments: r.email.attachments.length,
      });
    }
    // the outbox rows exactly as outboxRow() made them
    const outbox = await outboxRows(all.map((r) => r.outbox.id));
    expect(new Map(outbox.map((o) => [o.id, o]))).toEqual(new Map(all.map((r) => [r.outbox.id, r.outbox])));
  });

  it("when the inbox of one message of a batch was deleted, then only that message is refused, with nothing of it stored", async () => {
    const kept = await inbox();
    const gone = await inbox();
    const other = await inbox();
    await t.service.deps.data.write((repos) => repos.inboxes.remove(scope, gone.id));
    const head = [email(kept.id)];
    const good1 = [email(kept.id, { attachments: 1 })];
    const bad = [email(gone.id, { attachments: 1 })];
    // two recipients, one of them gone: the message is refused whole (the sender retries it)
    const half = [email(other.id), email(gone.id)];
    const good2 = [email(other.id)];
    const results = await Promise.all([head, good1, bad, half, good2].map((m) => settled(repo.receive(m))));
    expect(results).toEqual([
      "stored",
      "stored",
      `inbox ${gone.id} no longer receives mail`,
      `inbox ${gone.id} no longer receives mail`,
      "stored",
    ]);
    expect(statements).toEqual([1, 4]);

    const stored = await storedEmails([...head, ...good1, ...bad, ...half, ...good2].map((r) => r.email.id));
    expect(stored.map((r) => r.id).sort()).toEqual([...head, ...good1, ...good2].map((r) => r.email.id).sort());
    const outbox = await outboxRows([...head, ...good1, ...bad, ...half, ...good2].map((r) => r.outbox.id));
    expect(outbox.map((o) => o.id).sort()).toEqual([...head, ...good1, ...good2].map((r) => r.outbox.id).sort());
    const { rows } = await (t.infra.pool as Pool).query(`SELECT count(*)::int AS n FROM attachments WHERE id = $1::uuid`, [
      bad[0]?.email.attachments[0]?.id,
    ]);
    expect(rows[0].n).toBe(0);
  });

  it("when an inbox is another team's, then a message for it in that scope is refused", async () => {
    const theirs = await inbox({ orgId: scope.orgId, teamId: randomUUID() });
    const result = await settled(repo.receive([email(theirs.id)]));
    expect(result).toBe(`inbox ${theirs.id} no longer receives mail`);
  });

  it("when an inbox was deactivated or has expired since RCPT TO, then the write refuses its message and stores nothing of it", async () => {
    const inactive = await inbox();
    await (t.infra.pool as Pool).query("UPDATE inboxes SET is_active = false WHERE id = $1::uuid", [inactive.id]);
    // expired a moment ago: the message is received after its inbox's end
    const expired = await inbox(scope, new Date(Date.now() - 1));
    const live = await inbox();
    const messages = [[email(inactive.id)], [email(expired.id)], [email(live.id)]];
    const results = await Promise.all(messages.map((m) => settled(repo.receive(m))));
    expect(results).toEqual([`inbox ${inactive.id} no longer receives mail`, `inbox ${expired.id} no longer receives mail`, "stored"]);
    const stored = await storedEmails(messages.flat().map((r) => r.email.id));
    expect(stored.map((r) => r.inbox_id)).toEqual([live.id]);
    expect((await outboxRows(messages.flat().map((r) => r.outbox.id))).map((o) => o.id)).toEqual([messages[2]?.[0]?.outbox.id]);
  });

  it("when one message fails the whole statement, then the others of its batch are retried alone and stored, and only it fails", async () => {
    const a = await inbox();
    const existing = email(a.id);
    await repo.receive([existing]);
    await repo.idle();
    statements = [];
    const head = [email(a.id)];
    const good = [[email(a.id)], [email(a.id, { attachments: 1 })], [email(a.id)]];
    // an email id that is already stored: the statement fails on the primary key
    const clash = [email(a.id, { id: existing.email.id })];
    const results = await Promise.all([head, good[0], clash, good[1], good[2]].map((m) => settled(repo.receive(m as ReceivedEmail[]))));
    expect(results[0]).toBe("stored");
    expect([results[1], results[3], results[4]]).toEqual(["stored", "stored", "stored"]);
    expect(results[2]).toMatch(/duplicate key/);
    // the head alone, the batch of four that failed, then each of the four alone
    expect(statements).toEqual([1, 4, 1, 1, 1, 1]);
    const ids = [...head, ...good.flat()].map((r) => r.email.id);
    expect((await storedEmails(ids)).map((r) => r.id).sort()).toEqual([...ids].sort());
    expect((await outboxRows([...head, ...good.flat()].map((r) => r.outbox.id))).length).toBe(ids.length);
    expect(await outboxRows([clash[0]?.outbox.id as string])).toEqual([]);
  });

  it("when recipients are looked up while a lookup is in flight, then one statement answers them together, each as if asked alone", async () => {
    const now = new Date();
    const active = await inbox();
    const otherTeam = randomUUID();
    const other = await inbox({ orgId: scope.orgId, teamId: otherTeam });
    const inactive = await inbox();
    await (t.infra.pool as Pool).query("UPDATE inboxes SET is_active = false WHERE id = $1::uuid", [inactive.id]);
    const expiring = await inbox(scope, new Date(now.getTime() + 60_000));
    let lookups = 0;
    const pool = t.infra.pool as Pool;
    const counting = new IntakeRepository(
      {
        query: (q: { name?: string }) => {
          if (q.name === "intake-locate-receiving") lookups += 1;
          return pool.query(q as never);
        },
      } as unknown as Pool,
      { publishCommitted: () => undefined },
    );
    const asked: Array<[string, Date]> = [
      [active.fullAddress, now],
      [other.fullAddress, now],
      [`nobody-${randomUUID().slice(0, 8)}@${DOMAIN}`, now],
      [inactive.fullAddress, now],
      [expiring.fullAddress, now],
      [expiring.fullAddress, new Date(now.getTime() + 120_000)], // asked after its expiry
      [active.fullAddress, now],
    ];
    const found = await Promise.all(asked.map(([address, at]) => counting.locateReceiving(address, at)));
    expect(lookups).toBe(2); // the first alone, the six others together
    expect(found.map((f) => f?.id ?? null)).toEqual([active.id, other.id, null, null, expiring.id, null, active.id]);
    expect(found[1]).toMatchObject({ orgId: scope.orgId, teamId: otherTeam });
    expect(found[0]).toMatchObject({ orgId: scope.orgId, teamId: scope.teamId });
    expect(typeof found[0]?.createdBy).toBe("string");
  });

  describe("with a store timeout (smtp.store_timeout) shorter than a lock on the emails table", () => {
    const TIMEOUT_MS = 1000;
    let timed: Pool;
    let lockPool: Pool;
    /** A connection checked out of `lockPool`: the session that holds the lock. */
    let locker: { query(sql: string): Promise<unknown>; release(): void };
    /** The repository's monotonic clock, moved by the test (the pool's statement_timeout runs on the server's). */
    let clockMs: number;
    let timedRepo: IntakeRepository;

    beforeEach(async () => {
      clockMs = 0;
      // the intake's pool as smtp-main makes it: PostgreSQL cancels a statement past the timeout
      timed = createPool(t.dbUrl, 2, undefined, { statementTimeoutMs: TIMEOUT_MS });
      const counting = {
        query: (q: { name?: string; values?: unknown[] }) => {
          if (q.name === "intake-receive") statements.push(new Set(q.values?.[0] as number[]).size);
          return timed.query(q as never);
        },
      } as unknown as Pool;
      timedRepo = new IntakeRepository(counting, { publishCommitted: (rows) => handed.push(...rows.map((r) => r.id)) }, undefined, {
        timeoutMs: TIMEOUT_MS,
        clock: () => clockMs,
      });
      // another session holds the emails table: every write waits behind it
      lockPool = createPool(t.dbUrl, 1);
      locker = await lockPool.connect();
      await locker.query("BEGIN");
      await locker.query("LOCK TABLE emails IN ACCESS EXCLUSIVE MODE");
    });

    afterEach(async () => {
      await locker.query("ROLLBACK").catch(() => undefined);
      locker.release();
      await Promise.all([lockPool.end(), timed.end()]);
    });

    it("when the write cannot finish in time, then PostgreSQL cancels it, the message is refused, and nothing of it commits, then or later", async () => {
      const a = await inbox();
      const message = [email(a.id, { attachments: 1 })];
      const result = await settled(timedRepo.receive(message));
      expect(result).toMatch(/statement timeout/);
      expect(statements).toEqual([1]);
      expect(handed).toEqual([]);
      // the lock goes; a message written after it, on the same serial write path, is stored: the
      // refused one's statement is over, and nothing of it is there
      await locker.query("ROLLBACK");
      const next = [email(a.id)];
      expect(await settled(timedRepo.receive(next))).toBe("stored");
      expect((await storedEmails([...message, ...next].map((r) => r.email.id))).map((r) => r.id)).toEqual([next[0]?.email.id]);
      expect((await outboxRows(message.map((r) => r.outbox.id))).length).toBe(0);
      const { rows } = await (t.infra.pool as Pool).query(`SELECT count(*)::int AS n FROM attachments WHERE id = $1::uuid`, [
        message[0]?.email.attachments[0]?.id,
      ]);
      expect(rows[0].n).toBe(0);
      expect(handed).toEqual([next[0]?.outbox.id]);
    });

    it("when a message's store timeout passes while it waits behind a hung write, then it is refused without being sent to the database", async () => {
      const a = await inbox();
      const first = [email(a.id)];
      const queued = [email(a.id)];
      const firstResult = settled(timedRepo.receive(first));
      await waitFor(() => statements.length === 1, { what: "the first write to be sent" });
      const queuedResult = settled(timedRepo.receive(queued));
      clockMs += TIMEOUT_MS + 1; // the queued message's time is up before its turn comes
      expect(await firstResult).toMatch(/statement timeout/);
      expect(await queuedResult).toMatch(/not stored within the store timeout/);
      expect(statements).toEqual([1]); // the queued message never reached the database
      await locker.query("ROLLBACK");
      expect(await storedEmails([...first, ...queued].map((r) => r.email.id))).toEqual([]);
      expect(handed).toEqual([]);
    });
  });

  it("when the service's own intake stores a message, then the relay is handed its event and publishes it", async () => {
    const a = await inbox();
    const r = email(a.id);
    const published = new Promise<{ id: string; type: string; data: { email_id: string } }>((resolve) => {
      const sub = t.infra.nc.subscribe(subjects(t.ns).event("email.received"), {
        callback: (_err, msg) => {
          const event = msg.json<{ id: string; type: string; data: { email_id: string } }>();
          if (event.id !== r.outbox.id) return;
          sub.unsubscribe();
          resolve(event);
        },
      });
    });
    await t.service.deps.data.hot.intake.receive([r]);
    const event = await published;
    expect(event).toMatchObject({ type: "email.received", data: { email_id: r.email.id } });
  });
});
