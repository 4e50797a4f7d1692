import { randomUUID } from "node:crypto";
import { newEvent } from "@burnbox/service-kit/messaging";
import { AUDIT_CSV_COLUMNS, type Actor, type AuditEntry, type Page } from "@burnbox/contracts";
import { internalHeaders, makeActor, waitFor } from "@burnbox/test-kit";
import { AUDIT_CONSUMER } from "../src/messaging/audit.consumer";
import { auditsOf, deliver, handledThrough, startTenancy, type Tenancy } from "./support";

type AuditPage = Page<AuditEntry>;

describe("audit log", () => {
  let t: Tenancy;
  const owner = makeActor();
  const outsider = makeActor();
  const admin = makeActor({ is_system_admin: true });
  let orgId: string;
  let slug: string;
  let teamId: string;

  const list = (path: string, actor: Actor = owner) => t.call<AuditPage>("GET", path, { actor });
  /** The export as the client reads it: raw text and headers (the JSON client cannot read CSV). */
  const exportOf = async (query: string, actor: Actor = owner) => {
    const res = await fetch(`http://127.0.0.1:${t.service.port}/api/v1/orgs/${orgId}/audit/export?${query}`, {
      headers: internalHeaders(actor),
    });
    return { status: res.status, headers: res.headers, text: await res.text() };
  };
  const countRows = async (sql: string, params: unknown[]) =>
    (await t.infra.pool!.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_entries WHERE ${sql}`, params)).rows[0]!.n;

  beforeAll(async () => {
    t = await startTenancy({ audit: { retention: "30d", retention_interval: "1h" } });
    const org = await t.call<{ id: string; slug: string }>("POST", "/orgs", { actor: owner, body: { name: "Audited Co" } });
    orgId = org.body.id;
    slug = org.body.slug;
    const team = await t.call<{ id: string }>("POST", `/orgs/${orgId}/teams`, { actor: owner, body: { name: "=SUM(1,2)" } });
    teamId = team.body.id;
    await waitFor(async () => ((await list(`/orgs/${orgId}/audit`)).body.total >= 2 ? true : null), { what: "the org's first entries" });
  });
  afterAll(async () => {
    await t?.stop();
  });

  it("when changes are made in an org, then each is one entry with its org, actor, category and resource, newest first", async () => {
    const page = await list(`/orgs/${orgId}/audit`);
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ total: 2, page: 1, per_page: 20, total_pages: 1 });
    expect(page.body.data.map((e) => e.action)).toEqual(["team.created", "org.created"]);
    expect(page.body.data[0]).toEqual({
      id: expect.any(String) as string,
      org_id: orgId,
      actor_id: owner.user_id,
      actor_email: owner.email,
      actor_type: "user",
      action: "team.created",
      resource_type: "team",
      resource_id: teamId,
      resource_name: "=SUM(1,2)",
      metadata: { name: "=SUM(1,2)" },
      ip_address: "127.0.0.1",
      user_agent: expect.any(String) as string,
      severity: "info",
      category: "team",
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as string,
    });
  });

  it("when the same event arrives again, then the entry still exists exactly once", async () => {
    const [first] = await auditsOf(t, orgId);
    const seq = await deliver(t, first!.event);
    await handledThrough(t, AUDIT_CONSUMER, seq);
    expect(await countRows("id = $1", [first!.event.id])).toBe(1);
    expect((await list(`/orgs/${orgId}/audit`)).body.total).toBe(2);
  });

  it("when an emitter puts a secret in metadata, then the entry holds it redacted", async () => {
    const event = newEvent("audit.recorded", {
      org_id: orgId,
      team_id: null,
      data: {
        action: "webhook.created",
        actor_user_id: owner.user_id,
        actor_api_key_id: randomUUID(),
        target_type: "webhook",
        target_id: randomUUID(),
        ip_address: null,
        metadata: { url: "https://hooks.example.test/x", secret: "whsec_plaintext", token: "abc" },
      },
    });
    await handledThrough(t, AUDIT_CONSUMER, await deliver(t, event));
    const page = await list(`/orgs/${orgId}/audit?resource_id=${event.data.target_id}`);
    expect(page.body.data).toHaveLength(1);
    expect(page.body.data[0]).toMatchObject({
      actor_type: "api_key",
      category: "webhook",
      resource_name: "https://hooks.example.test/x",
      metadata: { url: "https://hooks.example.test/x", secret: "[redacted]", token: "[redacted]", api_key_id: event.data.actor_api_key_id },
    });
    expect(JSON.stringify(page.body)).not.toContain("whsec_plaintext");
  });

  it("when filters are given, then they narrow the page; an invalid value is 400", async () => {
    const only = async (q: string) => (await list(`/orgs/${orgId}/audit?${q}`)).body.data.map((e) => e.action);
    expect(await only("category=team")).toEqual(["team.created"]);
    expect(await only("action=org.created")).toEqual(["org.created"]);
    expect(await only(`actor_id=${owner.user_id}&resource_type=org`)).toEqual(["org.created"]);
    expect(await only(`actor_email=${encodeURIComponent(owner.email.toUpperCase())}&category=org`)).toEqual(["org.created"]);
    expect(await only(`resource_id=${teamId}`)).toEqual(["team.created"]);
    expect(await only("severity=critical")).toEqual([]);
    expect(await only("date_from=2000-01-01T00:00:00Z&date_to=2000-01-02T00:00:00%2B01:00")).toEqual([]);
    expect((await only(`date_from=${encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString())}`)).length).toBe(3);
    for (const bad of [
      "severity=loud",
      "category=weather",
      "actor_id=not-a-uuid",
      "date_from=yesterday",
      "date_to=2026-11-23",
      "date_from=2026-11-24T00:00:00Z&date_to=2026-11-23T00:00:00Z",
      "action=DROP TABLE",
      "per_page=0",
    ]) {
      const res = await t.call<{ code: string }>("GET", `/orgs/${orgId}/audit?${bad}`, { actor: owner });
      expect([bad, res.status, res.body.code]).toEqual([bad, 400, "validation_error"]);
    }
  });

  it("when someone outside the org asks, then the org is not found, for the list and the export", async () => {
    const hidden = await t.call<{ code: string }>("GET", `/orgs/${orgId}/audit`, { actor: outsider });
    expect(hidden.status).toBe(404);
    expect((await exportOf("format=csv", outsider)).status).toBe(404);
  });

  it("when a system admin lists every entry, then other orgs' entries are there; anyone else is 403", async () => {
    const other = await t.call<{ id: string }>("POST", "/orgs", { actor: outsider, body: { name: "Elsewhere" } });
    const found = await waitFor(
      async () => {
        const page = await list(`/admin/audit?resource_id=${other.body.id}`, admin);
        return page.body.total === 1 ? page.body.data[0] : null;
      },
      { what: "the other org's entry in the admin list" },
    );
    expect(found).toMatchObject({ org_id: other.body.id, action: "org.created" });
    expect((await list("/admin/audit", owner)).status).toBe(403);
    const key = makeActor({ is_system_admin: true, api_key: { id: randomUUID(), team_id: teamId, scopes: ["team.view"] } });
    expect((await list("/admin/audit", key)).status).toBe(403);
  });

  it("when exported as CSV, then it is an attachment with the notes' columns and formula cells neutralised", async () => {
    const res = await exportOf("format=csv&category=team");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(res.headers.get("content-disposition")).toMatch(new RegExp(`^attachment; filename="audit-${slug}-\\d{8}-\\d{6}\\.csv"$`));
    expect(res.headers.get("x-truncated")).toBeNull();
    const lines = res.text.split("\r\n");
    expect(lines[0]).toBe(AUDIT_CSV_COLUMNS.join(","));
    expect(lines).toHaveLength(3); // header, one row, the final line break
    expect(lines[1]).toContain(`,"'=SUM(1,2)",`); // quoted for its comma, neutralised by the leading '
    expect(lines[1]).not.toMatch(/,"?=SUM/);
  });

  it("when exported as JSON, then it is an array of the entries the list shows", async () => {
    const res = await exportOf("format=json");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toMatch(new RegExp(`filename="audit-${slug}-\\d{8}-\\d{6}\\.json"$`));
    const listed = await list(`/orgs/${orgId}/audit`);
    expect(JSON.parse(res.text)).toEqual(listed.body.data);
    expect((await exportOf("")).status).toBe(400);
    expect((await exportOf("format=xml")).status).toBe(400);
  });

  it("when more than 10,000 entries match, then the export stops at 10,000 and says it was truncated", async () => {
    const big = await t.call<{ id: string }>("POST", "/orgs", { actor: owner, body: { name: "Busy Co" } });
    await t.infra.pool!.query(
      `INSERT INTO audit_entries (id, org_id, actor_type, action, category, severity, resource_type, created_at)
       SELECT gen_random_uuid(), $1::uuid, 'system', 'inbox.expired', 'inbox', 'info', 'inbox', now() - make_interval(secs => g)
       FROM generate_series(1, 10005) g`,
      [big.body.id],
    );
    const res = await fetch(`http://127.0.0.1:${t.service.port}/api/v1/orgs/${big.body.id}/audit/export?format=json&action=inbox.expired`, {
      headers: internalHeaders(owner),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-truncated")).toBe("true");
    const rows = (await res.json()) as AuditEntry[];
    expect(rows).toHaveLength(10_000);
    expect(Date.parse(rows[0]!.created_at)).toBeGreaterThan(Date.parse(rows[9_999]!.created_at));
  });

  it("when entries are older than audit.retention, then the worker deletes them and keeps the rest", async () => {
    await t.infra.pool!.query(
      `INSERT INTO audit_entries (id, org_id, actor_type, action, category, severity, resource_type, created_at)
       SELECT gen_random_uuid(), $1::uuid, 'system', 'inbox.expired', 'inbox', 'info', 'inbox', now() - interval '31 days' - make_interval(secs => g)
       FROM generate_series(1, 25) g`,
      [orgId],
    );
    expect(await countRows("org_id = $1 AND created_at < now() - interval '30 days'", [orgId])).toBe(25);
    await t.service.workers.auditRetention.runNow();
    expect(await countRows("org_id = $1 AND created_at < now() - interval '30 days'", [orgId])).toBe(0);
    expect((await list(`/orgs/${orgId}/audit`)).body.total).toBeGreaterThanOrEqual(3);
  });
});
