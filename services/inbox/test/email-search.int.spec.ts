import { randomBytes, randomUUID } from "node:crypto";
import { poolSql } from "@burnbox/service-kit/data";
import { makeActor, type TestService } from "@burnbox/test-kit";
import type { RunningService } from "../src/app";
import type { InboxConfig } from "../src/config";
import { BulkImportRepository, type BulkEmail } from "../src/data/bulk-import.repository";
import { BODY_WORDS } from "../src/data/email.repository";
import { serveTenancyStandIn } from "./tenancy-stand-in";
import { bulkEmail, startInboxTestService } from "./inbox-test-service";

const DOMAIN = "mail.search-test.example";

/** The search syntax of `q` (README, "Searching mail") on the real Postgres, with its trigram indexes, over mail the bulk import wrote. */
describe("GET /inboxes/:id/emails?q= on real Postgres", () => {
  let t: TestService<InboxConfig, RunningService>;
  let stops: Array<{ stop(): Promise<void> }> = [];
  const owner = makeActor();
  const orgId = randomUUID();
  const teamId = randomUUID();
  const assignmentId = randomUUID();
  let inboxId = "";
  let otherInboxId = "";

  const email = (over: Partial<BulkEmail> & { subject: string }): BulkEmail =>
    bulkEmail(inboxId, DOMAIN, {
      snippet: over.subject,
      bodyText: "nothing special",
      receivedAt: new Date("2026-03-10T12:00:00Z"),
      ...over,
    });

  beforeAll(async () => {
    t = await startInboxTestService("search");
    stops = serveTenancyStandIn(t.infra, t.ns, { assignmentId, orgId, teamId, domain: DOMAIN });
    const created = async () => {
      const res = await t.call<{ id: string }>("POST", "/inboxes", { actor: owner, body: { domain_assignment_id: assignmentId } });
      expect(res.status).toBe(201);
      return res.body.id;
    };
    inboxId = await created();
    otherInboxId = await created();
    const bulk = new BulkImportRepository(poolSql(t.infra.pool!));
    const rows = [
      email({ subject: "Your invoice for March", fromAddress: "billing@shop.example", receivedAt: new Date("2026-03-01T08:00:00Z") }),
      email({ subject: "Weekly report", bodyText: "The invoice total is attached", hasAttachments: true, isRead: true }),
      email({ subject: "Password reset", fromAddress: "noreply@auth.example", receivedAt: new Date("2026-04-02T00:00:00Z") }),
      email({ subject: "Out of office", toAddress: `other@${DOMAIN}`, bodyText: null as unknown as string, isRead: true }),
      email({ subject: "50% off_today", receivedAt: new Date("2026-02-01T00:00:00Z") }),
    ];
    expect(await bulk.insertEmails({ orgId, teamId }, rows)).toBe(rows.length);
    // another inbox's mail never shows, whatever it matches
    expect(await bulk.insertEmails({ orgId, teamId }, [{ ...email({ subject: "Your invoice elsewhere" }), inboxId: otherInboxId }])).toBe(
      1,
    );
    // another team's scope writes nothing into this team's inbox
    expect(await bulk.insertEmails({ orgId, teamId: randomUUID() }, [email({ subject: "foreign" })])).toBe(0);
  });

  afterAll(async () => {
    await Promise.all(stops.map((s) => s.stop()));
    await t?.stop();
  });

  const search = async (q: string) => {
    const res = await t.call<{ data: Array<{ subject: string }>; total: number }>(
      "GET",
      `/inboxes/${inboxId}/emails?q=${encodeURIComponent(q)}&per_page=100`,
      { actor: owner },
    );
    expect(res.status).toBe(200);
    return res.body.data.map((e) => e.subject).sort();
  };

  it.each([
    ["invoice", ["Weekly report", "Your invoice for March"]],
    ["INVOICE march", ["Your invoice for March"]],
    ['"invoice total"', ["Weekly report"]],
    ["a\\\\b", []],
    ["-invoice", ["50% off_today", "Out of office", "Password reset"]],
    ["from:billing", ["Your invoice for March"]],
    ["-from:shop.example", ["Password reset"]],
    ["to:other@", ["Out of office"]],
    ['subject:"weekly report"', ["Weekly report"]],
    ["-subject:o", []],
    ["has:attachment", ["Weekly report"]],
    ["-has:attachment invoice", ["Your invoice for March"]],
    ["is:read", ["Out of office", "Weekly report"]],
    ["is:unread", ["50% off_today", "Password reset", "Your invoice for March"]],
    ["after:2026-04-02", ["Password reset"]],
    ["before:2026-03-01T08:00:00Z", ["50% off_today"]],
    ["after:2026-03-01 before:2026-04-01", ["Out of office", "Weekly report", "Your invoice for March"]],
    ["-after:2026-03-01", ["50% off_today"]],
    ["50%", ["50% off_today"]],
    ["f_o", []], // "of office" would match an unescaped _
    ["off_", ["50% off_today"]],
    // the body matches by whole words (migration 0010), the subject and sender by substring
    ["total", ["Weekly report"]],
    ["TOTAL attached", ["Weekly report"]],
    ["tota", []],
    ['"total invoice"', []], // a phrase's words in its order
    ["-total", ["50% off_today", "Out of office", "Password reset", "Your invoice for March"]],
    ["repo", ["Weekly report"]], // a part of a word of the subject
    ["%", ["50% off_today"]], // no word in it: subject and sender only
  ])("when q is %s, then exactly the matching emails of the inbox are listed", async (q, expected) => {
    expect(await search(q)).toEqual(expected);
  });

  it("when the total is asked with a search, then it counts the matches only", async () => {
    const res = await t.call<{ total: number }>("GET", `/inboxes/${inboxId}/emails?q=${encodeURIComponent("is:unread")}`, { actor: owner });
    expect(res.body.total).toBe(3);
  });

  it("when a search is paged, then the pages follow newest first (ties by id, descending) and each carries the same total", async () => {
    const page = async (n: number) => {
      const res = await t.call<{ data: Array<{ id: string; received_at: string }>; total: number; total_pages: number }>(
        "GET",
        `/inboxes/${inboxId}/emails?q=${encodeURIComponent("-subject:zzz")}&per_page=2&page=${n}`,
        { actor: owner },
      );
      expect(res.status).toBe(200);
      return res.body;
    };
    const pages = [await page(1), await page(2), await page(3), await page(4)];
    expect(pages.map((p) => p.total)).toEqual([5, 5, 5, 5]);
    expect(pages.map((p) => p.data.length)).toEqual([2, 2, 1, 0]);
    const seen = pages.flatMap((p) => p.data);
    const expected = [...seen].sort((a, b) => b.received_at.localeCompare(a.received_at) || (a.id < b.id ? 1 : -1));
    expect(seen.map((e) => e.id)).toEqual(expected.map((e) => e.id));
    // two emails share 2026-03-10T12:00:00Z: the id orders them
    expect(new Set(seen.map((e) => e.id)).size).toBe(5);
  });

  it("when q holds a term it cannot read, then 400 in the error envelope naming it", async () => {
    const res = await t.call("GET", `/inboxes/${inboxId}/emails?q=${encodeURIComponent("invoice before:someday")}`, { actor: owner });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "validation_error", error: expect.stringContaining('"before:someday"') as unknown });
  });

  it("when a subject is far longer than a btree index entry can hold, then the mail is stored and found by its subject and date", async () => {
    // 1,500 random hex words, 13,500 characters that compress poorly: more than a third of an 8 KiB
    // page even compressed, so an index that carried the subject as a btree key or INCLUDE column
    // would refuse the row ("index row size exceeds maximum"), and the intake would answer 451 to
    // every resend of such a message. GIN (trigrams) and the table (TOAST) hold it.
    const words = Array.from({ length: 1500 }, () => randomBytes(4).toString("hex"));
    const long = { ...email({ subject: words.join(" "), receivedAt: new Date("2026-05-01T00:00:00Z") }), inboxId: otherInboxId };
    const bulk = new BulkImportRepository(poolSql(t.infra.pool!));
    expect(await bulk.insertEmails({ orgId, teamId }, [long])).toBe(1);
    const q = `subject:"${words.slice(700, 703).join(" ")}" is:unread after:2026-04-30`;
    const res = await t.call<{ data: Array<{ id: string }>; total: number }>(
      "GET",
      `/inboxes/${otherInboxId}/emails?q=${encodeURIComponent(q)}`,
      {
        actor: owner,
      },
    );
    expect(res.status).toBe(200);
    expect(res.body.data.map((e) => e.id)).toEqual([long.id]);
    expect(res.body.total).toBe(1);
  });

  it("when a body is longer than 100,000 characters, then its words are searched in its first 100,000", async () => {
    const body = `zebrafirst ${"filler ".repeat(15_000)}zebralast`; // 105,017 characters
    const long = { ...email({ subject: "A long body", bodyText: body }), inboxId: otherInboxId };
    const bulk = new BulkImportRepository(poolSql(t.infra.pool!));
    expect(await bulk.insertEmails({ orgId, teamId }, [long])).toBe(1);
    const found = async (q: string) => {
      const res = await t.call<{ data: Array<{ id: string }>; total: number }>("GET", `/inboxes/${otherInboxId}/emails?q=${q}`, {
        actor: owner,
      });
      expect(res.status).toBe(200);
      return { ids: res.body.data.map((e) => e.id), total: res.body.total };
    };
    expect(await found("zebrafirst")).toEqual({ ids: [long.id], total: 1 });
    expect(await found("zebralast")).toEqual({ ids: [], total: 0 });
  });

  it("when searches have run, then no connection of the pool keeps the search's work_mem", async () => {
    for (const q of ["invoice", "-invoice", "from:billing"]) await search(q);
    const pool = t.infra.pool!;
    // every connection the pool holds, at once: each has the value it started with
    const clients = await Promise.all(Array.from({ length: pool.totalCount }, () => pool.connect()));
    try {
      expect(clients.length).toBeGreaterThan(0);
      for (const client of clients) {
        const { rows } = await client.query<{ setting: string; reset_val: string }>(
          "SELECT setting, reset_val FROM pg_settings WHERE name = 'work_mem'",
        );
        expect(rows[0]!.setting).toBe(rows[0]!.reset_val);
      }
    } finally {
      for (const client of clients) client.release();
    }
  });

  it("when a word search runs, then the statement's body expression is the one the full-text index holds", async () => {
    const client = await t.infra.pool!.connect();
    try {
      await client.query("BEGIN");
      await client.query("SET LOCAL enable_seqscan = off"); // five rows: without this a scan is cheaper than any index
      const { rows } = await client.query<{ "QUERY PLAN": string }>(
        `EXPLAIN SELECT count(*) FROM emails e WHERE ${BODY_WORDS.text} @@ phraseto_tsquery('simple'::regconfig, $1)`,
        ["total"],
      );
      expect(rows.map((r) => r["QUERY PLAN"]).join("\n")).toContain("emails_body_words_idx");
    } finally {
      await client.query("ROLLBACK");
      client.release();
    }
  });

  it("when the search runs, then Postgres can serve subject:, from: and to: from the trigram indexes", async () => {
    const sql = poolSql(t.infra.pool!);
    const idx = await sql<{ indexname: string }>`
      SELECT indexname FROM pg_indexes WHERE tablename = 'emails' AND indexdef LIKE '%gin_trgm_ops%' ORDER BY indexname`;
    expect(idx.map((r) => r.indexname)).toEqual(["emails_from_address_trgm_idx", "emails_subject_trgm_idx", "emails_to_address_trgm_idx"]);
  });
});
