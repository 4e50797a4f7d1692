import { randomUUID } from "node:crypto";
import { poolSql } from "@burnbox/service-kit/data";
import type { TestService } from "@burnbox/test-kit";
import type { RunningService } from "../src/app";
import type { InboxConfig } from "../src/config";
import { BulkImportRepository } from "../src/data/bulk-import.repository";
import { backfillTranscripts } from "../src/domain/smtp/backfill-transcripts.use-case";
import { bulkEmail, createTestInbox, startInboxTestService } from "./inbox-test-service";

const DOMAIN = "mail.backfill-test.example";

/** A stored transcript as the intake writes it (`StoredTranscript`), told apart by its client address. */
const transcript = (ip: string) => ({ ip, helo: "client.test", tls: false, t0: 0, lines: [[0, "c", "EHLO client.test"]] });

/**
 * The migrate step of the transcript's move (migration 0018, docs/operations.md): the transcripts
 * of mail stored before, only in `email_transcripts`, copied into the emails' rows in batches, by
 * several replicas at once, without overwriting a row's own.
 */
describe("transcript backfill on real Postgres", () => {
  let t: TestService<InboxConfig, RunningService>;
  const scope = { orgId: randomUUID(), teamId: randomUUID() };

  beforeAll(async () => {
    t = await startInboxTestService("backfill");
  });

  afterAll(async () => {
    await t?.stop();
  });

  /** `n` emails of a new inbox, each with a transcript in `email_transcripts` only (as the release before 0018 stored it). */
  async function oldMail(n: number): Promise<string[]> {
    const inbox = await createTestInbox(t.service.deps, scope, { prefix: "old", domain: DOMAIN });
    const rows = Array.from({ length: n }, () => bulkEmail(inbox.id, DOMAIN));
    await new BulkImportRepository(poolSql(t.infra.pool!)).insertEmails(scope, rows);
    await t.infra.pool!.query(
      "INSERT INTO email_transcripts (email_id, transcript) SELECT id, jsonb_build_object('ip', id::text, 'helo', 'client.test', 'tls', false, 't0', 0, 'lines', '[]'::jsonb) FROM unnest($1::uuid[]) AS id",
      [rows.map((r) => r.id)],
    );
    return rows.map((r) => r.id);
  }

  /** Each email's transcript in its row (null: none) and whether its `email_transcripts` row is still there. */
  async function stored(ids: string[]) {
    const { rows } = await t.infra.pool!.query<{ id: string; column: { ip: string } | null; table: { ip: string } | null }>(
      `SELECT e.id::text, e.transcript AS column, t.transcript AS table FROM emails e LEFT JOIN email_transcripts t ON t.email_id = e.id
       WHERE e.id = ANY($1::uuid[]) ORDER BY e.id`,
      [ids],
    );
    return rows;
  }

  it("when old mail has its transcript only in email_transcripts, then a walk in batches copies each into its row, and a second walk finds nothing", async () => {
    const ids = await oldMail(7);
    const before = await Promise.all(ids.map((id) => t.service.deps.data.hot.smtpLog.transcriptOf(scope, id)));

    let rests = 0;
    const walk = await backfillTranscripts(t.service.deps, { rows: 3, rest: () => Promise.resolve(void rests++) });
    expect(walk).toEqual({ filled: 7, complete: true });
    // 7 rows by 3: three statements, with a rest between each two
    expect(rests).toBe(2);
    for (const r of await stored(ids)) {
      expect(r.column).toEqual({ ip: r.id, helo: "client.test", tls: false, t0: 0, lines: [] });
      // the old form stays for the release that drops it
      expect(r.table).toEqual(r.column);
    }
    // the reader answers the same as before the copy
    expect(await Promise.all(ids.map((id) => t.service.deps.data.hot.smtpLog.transcriptOf(scope, id)))).toEqual(before);

    expect(await backfillTranscripts(t.service.deps, { rows: 3 })).toEqual({ filled: 0, complete: true });
  });

  it("when an email's row already holds its transcript, then the walk leaves it, and mail without one stays without", async () => {
    const [own, other] = await oldMail(2);
    await t.infra.pool!.query("UPDATE emails SET transcript = $2 WHERE id = $1", [own, JSON.stringify(transcript("192.0.2.1"))]);
    const inbox = await createTestInbox(t.service.deps, scope, { prefix: "none", domain: DOMAIN });
    const none = bulkEmail(inbox.id, DOMAIN);
    await new BulkImportRepository(poolSql(t.infra.pool!)).insertEmails(scope, [none]);

    expect((await backfillTranscripts(t.service.deps, { rows: 2 })).filled).toBe(1);
    const rows = new Map((await stored([own!, other!, none.id])).map((r) => [r.id, r]));
    expect(rows.get(own!)?.column).toEqual(transcript("192.0.2.1"));
    expect(rows.get(other!)?.column?.ip).toBe(other);
    expect(rows.get(none.id)).toMatchObject({ column: null, table: null });
  });

  it("when several replicas walk at once, then every row is filled exactly once between them", async () => {
    const ids = await oldMail(40);
    const walks = await Promise.all(Array.from({ length: 3 }, () => backfillTranscripts(t.service.deps, { rows: 4 })));
    expect(walks.every((w) => w.complete)).toBe(true);
    expect(walks.reduce((n, w) => n + w.filled, 0)).toBe(40);
    for (const r of await stored(ids)) expect(r.column?.ip).toBe(r.id);
  });

  it("when the service is stopping, then the walk ends before its next statement, says so, and a later walk finishes it", async () => {
    const ids = await oldMail(3);
    let statements = 0;
    const cut = await backfillTranscripts(t.service.deps, {
      rows: 1,
      rest: () => Promise.resolve(void statements++),
      stopping: () => statements >= 1,
    });
    // one statement of one row ran (the walk's first row may be an earlier test's, already filled)
    expect(statements).toBe(1);
    expect(cut.complete).toBe(false);
    expect(cut.filled).toBeLessThanOrEqual(1);
    const rest = await backfillTranscripts(t.service.deps, { rows: 1 });
    expect(rest).toEqual({ filled: 3 - cut.filled, complete: true });
    for (const r of await stored(ids)) expect(r.column?.ip).toBe(r.id);
  });
});
