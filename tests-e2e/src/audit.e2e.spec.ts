import { randomBytes } from "node:crypto";
import { waitFor } from "@burnbox/test-kit";
import { apiClient, sendMail } from "./clients";
import { SharedSystem } from "./shared-system";
import { createInbox, registerAdmin, registerUser, teamWithDomain } from "./world";

interface Entry {
  id: string;
  org_id: string | null;
  actor_id: string | null;
  actor_email: string | null;
  actor_type: string;
  action: string;
  resource_type: string;
  resource_id: string | null;
  resource_name: string | null;
  metadata: Record<string, unknown>;
  severity: string;
  category: string;
  created_at: string;
}
interface Page {
  data: Entry[];
  total: number;
  page: number;
  per_page: number;
  total_pages: number;
}

const CSV_COLUMNS =
  "id,created_at,org_id,actor_id,actor_email,actor_type,action,severity,category,resource_type,resource_id,resource_name,ip_address,user_agent,metadata";

/** The audit log through the gateway: what changes leave behind, who may read it, and its export. */
describe("audit log through the gateway", () => {
  const system = SharedSystem.attach();
  const api = apiClient(system.gatewayUrl);

  let world: Awaited<ReturnType<typeof teamWithDomain>>;
  let inboxId: string;
  let emailId: string;
  let memberId: string;
  let keyId: string;
  let rawKey: string;
  const keyName = `=HYPERLINK("http://evil.test","${randomBytes(3).toString("hex")}")`;

  const auditOf = (query = "", token = world.owner.token) => api<Page>("GET", `/orgs/${world.orgId}/audit${query}`, { token });
  /** The one entry of `action` on `resourceId`, once the consumer has stored it. */
  const entryFor = (action: string, resourceId: string) =>
    waitFor(
      async () => {
        const res = await auditOf(`?action=${action}&resource_id=${resourceId}`);
        return res.status === 200 && res.body.total > 0 ? res.body : null;
      },
      { what: `${action} in the audit log` },
    );
  const download = async (query: string, token = world.owner.token) => {
    const res = await fetch(`${system.gatewayUrl}/api/v1/orgs/${world.orgId}/audit/export?${query}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    return { status: res.status, headers: res.headers, text: await res.text() };
  };

  beforeAll(async () => {
    world = await teamWithDomain(api);
    const inbox = await createInbox(api, world.owner.token, world.assignmentId, `audit-${randomBytes(3).toString("hex")}`);
    inboxId = inbox.id;
    const sent = await sendMail(system.ports.smtp, { from: "a@example.org", to: inbox.full_address, subject: "Audit me", text: "x" });
    if (sent.data?.code !== 250) throw new Error(`mail: ${JSON.stringify(sent)}`);
    const listed = await waitFor(
      async () => {
        const r = await api<{ data: Array<{ id: string }> }>("GET", `/inboxes/${inbox.id}/emails`, { token: world.owner.token });
        return r.body.data?.[0] ?? null;
      },
      { what: "the email listed" },
    );
    emailId = listed.id;
    expect((await api("DELETE", `/emails/${emailId}`, { token: world.owner.token })).status).toBe(204);
    const key = await api<{ id: string; raw_key: string }>("POST", `/orgs/${world.orgId}/teams/${world.teamId}/api-keys`, {
      token: world.owner.token,
      body: { name: keyName, scopes: ["team.inboxes.view"] },
    });
    expect(key.status).toBe(201);
    keyId = key.body.id;
    rawKey = key.body.raw_key;
    const member = await registerUser(api, "member");
    memberId = member.userId;
    const added = await api("POST", `/orgs/${world.orgId}/members/add`, {
      token: world.owner.token,
      body: { user_id: memberId, role: "member" },
    });
    expect(added.status).toBe(201);
    const changed = await api("PATCH", `/orgs/${world.orgId}/members/${memberId}`, { token: world.owner.token, body: { role: "admin" } });
    expect(changed.status).toBe(200);
  });

  it("when changes are made through the API, then each is in the org's log once, with org, actor, category and resource", async () => {
    const actor = { org_id: world.orgId, actor_id: world.owner.userId, actor_email: world.owner.email, actor_type: "user" };
    const expected: Array<[string, string, Partial<Entry>]> = [
      ["inbox.created", inboxId, { category: "inbox", resource_type: "inbox" }],
      ["email.deleted", emailId, { category: "email", resource_type: "email", resource_name: "Audit me", severity: "warning" }],
      ["apikey.created", keyId, { category: "apikey", resource_type: "api_key", resource_name: keyName }],
      ["member.role_changed", memberId, { category: "member", resource_type: "member" }],
    ];
    for (const [action, resourceId, fields] of expected) {
      const page = await entryFor(action, resourceId);
      expect(page.total).toBe(1);
      expect(page.data[0]).toMatchObject({ ...actor, action, resource_id: resourceId, ...fields });
    }
    const everything = await auditOf("?per_page=100");
    const ids = everything.body.data.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    const text = JSON.stringify(everything.body);
    expect(text).not.toContain(rawKey);
    expect(text).not.toContain(rawKey.slice(3));
    const times = everything.body.data.map((e) => Date.parse(e.created_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it("when filters are given, then they narrow the log; an invalid value is 400", async () => {
    await entryFor("member.role_changed", memberId);
    const actions = async (q: string) => (await auditOf(q)).body.data.map((e) => e.action);
    expect(await actions("?category=apikey")).toEqual(["apikey.created"]);
    expect(await actions(`?resource_type=email&actor_email=${encodeURIComponent(world.owner.email.toUpperCase())}`)).toEqual([
      "email.deleted",
    ]);
    expect(await actions(`?actor_id=${memberId}`)).toEqual([]);
    expect(await actions("?date_to=2001-01-01T00:00:00Z")).toEqual([]);
    const recent = await auditOf(`?date_from=${encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString())}&severity=info`);
    expect(recent.body.total).toBeGreaterThanOrEqual(3);
    expect(recent.body.data.every((e) => e.severity === "info")).toBe(true);
    for (const bad of [
      "?severity=loud",
      "?category=weather",
      "?actor_id=42",
      "?date_from=yesterday",
      "?date_to=2026-11-23",
      "?per_page=1000",
    ]) {
      const res = await auditOf(bad);
      expect([bad, res.status, (res.body as unknown as { code: string }).code]).toEqual([bad, 400, "validation_error"]);
    }
  });

  it("when another org's admin asks, then the org is unknown to them; a plain member is refused", async () => {
    const other = await teamWithDomain(api);
    const theirs = await auditOf("", other.owner.token);
    expect(theirs.status).toBe(404);
    expect(theirs.body).toEqual({ error: "organization not found", code: "not_found" });
    expect((await download("format=csv", other.owner.token)).status).toBe(404);
    const plain = await registerUser(api, "plain");
    await api("POST", `/orgs/${world.orgId}/members/add`, { token: world.owner.token, body: { user_id: plain.userId, role: "member" } });
    expect((await auditOf("", plain.token)).status).toBe(403);
  });

  it("when a system admin lists the whole log, then every org's entries are there; a user or an API key is 403", async () => {
    await entryFor("apikey.created", keyId);
    const admin = await registerAdmin(api, system);
    const all = await api<Page>("GET", `/admin/audit?resource_id=${keyId}`, { token: admin.token });
    expect(all.status).toBe(200);
    expect(all.body.data.map((e) => [e.org_id, e.action])).toEqual([[world.orgId, "apikey.created"]]);
    expect((await api("GET", "/admin/audit", { token: world.owner.token })).status).toBe(403);
    const org = await api<{ id: string }>("POST", "/orgs", {
      token: admin.token,
      body: { name: `Admin ${randomBytes(3).toString("hex")}` },
    });
    const team = await api<{ id: string }>("POST", `/orgs/${org.body.id}/teams`, { token: admin.token, body: { name: "Ops" } });
    const adminKey = await api<{ raw_key: string }>("POST", `/orgs/${org.body.id}/teams/${team.body.id}/api-keys`, {
      token: admin.token,
      body: { name: "admin key", scopes: ["team.view"] },
    });
    expect(adminKey.status).toBe(201);
    expect((await api("GET", "/admin/audit", { token: adminKey.body.raw_key })).status).toBe(403);
    expect((await auditOf("", rawKey)).status).toBe(403);
  });

  it("when exported as CSV, then it is an attachment with the notes' columns and the formula-looking name quoted", async () => {
    await entryFor("apikey.created", keyId);
    const res = await download("format=csv&category=apikey");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="audit-[a-z0-9-]+-\d{8}-\d{6}\.csv"$/);
    expect(res.headers.get("x-truncated")).toBeNull();
    const [header, row, ...rest] = res.text.split("\r\n");
    expect(header).toBe(CSV_COLUMNS);
    expect(rest).toEqual([""]);
    expect(row).toContain(`"'${keyName.replace(/"/g, '""')}"`);
    expect(row).not.toMatch(/,"?=HYPERLINK/);
    expect(res.text).not.toContain(rawKey.slice(3));
  });

  it("when exported as JSON, then it is the array of the entries the list shows", async () => {
    await entryFor("member.role_changed", memberId);
    const res = await download("format=json");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toMatch(/filename="audit-[a-z0-9-]+-\d{8}-\d{6}\.json"$/);
    const listed = await auditOf("?per_page=100");
    expect(JSON.parse(res.text)).toEqual(listed.body.data);
    expect((await download("format=pdf")).status).toBe(400);
    expect((await download("")).status).toBe(400);
  });
});
