import { randomUUID } from "node:crypto";
import { poolSql } from "@burnbox/service-kit/data";
import { makeActor, type TestService } from "@burnbox/test-kit";
import type { RunningService } from "../src/app";
import type { InboxConfig } from "../src/config";
import { BulkImportRepository, type BulkEmail } from "../src/data/bulk-import.repository";
import { serveTenancyStandIn } from "./tenancy-stand-in";
import { bulkEmail, startInboxTestService } from "./inbox-test-service";

const DOMAIN = "mail.counts-test.example";

/**
 * The email and unread counts kept per inbox (migration 0012's triggers): what `GET /inboxes/:id`,
 * the inbox list and an unsearched email list's `total` read, always equal to counting the emails,
 * through inserts from several connections at once, read-flag changes, deletes and an inbox's delete.
 */
describe("kept inbox counts on real Postgres", () => {
  let t: TestService<InboxConfig, RunningService>;
  let stops: Array<{ stop(): Promise<void> }> = [];
  const owner = makeActor();
  const orgId = randomUUID();
  const teamId = randomUUID();
  const assignmentId = randomUUID();

  const email = (inboxId: string, over: Partial<BulkEmail> = {}): BulkEmail => bulkEmail(inboxId, DOMAIN, over);

  beforeAll(async () => {
    t = await startInboxTestService("counts");
    stops = serveTenancyStandIn(t.infra, t.ns, { assignmentId, orgId, teamId, domain: DOMAIN });
  });

  afterAll(async () => {
    await Promise.all(stops.map((s) => s.stop()));
    await t?.stop();
  });

  const newInbox = async () => {
    const res = await t.call<{ id: string }>("POST", "/inboxes", { actor: owner, body: { domain_assignment_id: assignmentId } });
    expect(res.status).toBe(201);
    return res.body.id;
  };

  /** What every read of the counts answers, beside what counting the emails gives. */
  const counts = async (inboxId: string) => {
    const inbox = await t.call<{ email_count: number; unread_count: number }>("GET", `/inboxes/${inboxId}`, { actor: owner });
    const list = await t.call<{ total: number }>("GET", `/inboxes/${inboxId}/emails`, { actor: owner });
    const { rows } = await t.infra.pool!.query<{ n: number; u: number }>(
      "SELECT count(*)::int AS n, (count(*) FILTER (WHERE NOT is_read))::int AS u FROM emails WHERE inbox_id = $1",
      [inboxId],
    );
    expect(list.body.total).toBe(inbox.body.email_count);
    return {
      kept: { emails: inbox.body.email_count, unread: inbox.body.unread_count },
      counted: { emails: rows[0]!.n, unread: rows[0]!.u },
    };
  };

  it("when mail is written through several connections at once, then the kept counts equal the emails counted", async () => {
    const inboxId = await newInbox();
    const other = await newInbox();
    const bulk = new BulkImportRepository(poolSql(t.infra.pool!));
    // 12 statements at once, each with mail of both inboxes (half of it read): the pool spreads them over its connections
    const written = await Promise.all(
      Array.from({ length: 12 }, (_, k) =>
        bulk.insertEmails({ orgId, teamId }, [
          ...Array.from({ length: 10 }, (_, i) => email(inboxId, { isRead: i % 2 === 0 })),
          ...Array.from({ length: k }, () => email(other)),
        ]),
      ),
    );
    expect(written.reduce((a, b) => a + b, 0)).toBe(120 + 66);
    expect(await counts(inboxId)).toEqual({ kept: { emails: 120, unread: 60 }, counted: { emails: 120, unread: 60 } });
    expect(await counts(other)).toEqual({ kept: { emails: 66, unread: 66 }, counted: { emails: 66, unread: 66 } });
  });

  it("when emails are marked read and unread, all read, and deleted, then the kept counts follow", async () => {
    const inboxId = await newInbox();
    const bulk = new BulkImportRepository(poolSql(t.infra.pool!));
    const rows = Array.from({ length: 8 }, () => email(inboxId));
    await bulk.insertEmails({ orgId, teamId }, rows);
    // read flags changed at once, some twice, through the API
    await Promise.all(rows.slice(0, 4).map((r) => t.call("PATCH", `/emails/${r.id}`, { actor: owner, body: { is_read: true } })));
    await t.call("PATCH", `/emails/${rows[0]!.id}`, { actor: owner, body: { is_read: true } }); // no change
    await t.call("PATCH", `/emails/${rows[1]!.id}`, { actor: owner, body: { is_read: false } });
    expect(await counts(inboxId)).toEqual({ kept: { emails: 8, unread: 5 }, counted: { emails: 8, unread: 5 } });

    expect((await t.call("DELETE", `/emails/${rows[2]!.id}`, { actor: owner })).status).toBe(204); // a read one
    expect((await t.call("DELETE", `/emails/${rows[7]!.id}`, { actor: owner })).status).toBe(204); // an unread one
    expect(await counts(inboxId)).toEqual({ kept: { emails: 6, unread: 4 }, counted: { emails: 6, unread: 4 } });

    expect((await t.call("POST", `/inboxes/${inboxId}/emails/mark-all-read`, { actor: owner })).status).toBe(200);
    expect(await counts(inboxId)).toEqual({ kept: { emails: 6, unread: 0 }, counted: { emails: 6, unread: 0 } });
  });

  it("when an inbox with mail is deleted, then its kept counts go with it", async () => {
    const inboxId = await newInbox();
    await new BulkImportRepository(poolSql(t.infra.pool!)).insertEmails({ orgId, teamId }, [email(inboxId), email(inboxId)]);
    expect((await counts(inboxId)).kept.emails).toBe(2);
    expect((await t.call("DELETE", `/inboxes/${inboxId}`, { actor: owner })).status).toBe(204);
    const { rows } = await t.infra.pool!.query("SELECT 1 FROM inbox_email_counts WHERE inbox_id = $1", [inboxId]);
    expect(rows).toEqual([]);
  });
});
