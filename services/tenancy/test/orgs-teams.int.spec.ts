import { randomUUID } from "node:crypto";
import { makeActor, waitFor } from "@burnbox/test-kit";
import { auditsOf, orgTeamDomain, startTenancy, type Tenancy } from "./support";

describe("orgs and teams", () => {
  let t: Tenancy;
  const owner = makeActor();
  const outsider = makeActor();

  beforeAll(async () => {
    t = await startTenancy();
  });
  afterAll(async () => {
    await t?.stop();
  });

  it("when a user creates an org, then they own it and an outsider cannot see it", async () => {
    const created = await t.call<{ id: string; slug: string; settings: Record<string, unknown> }>("POST", "/orgs", {
      actor: owner,
      body: { name: "Acme Widgets" },
    });
    expect(created.status).toBe(201);
    expect(created.body.slug).toMatch(/^acme-widgets/);
    expect(created.body.settings).toMatchObject({ default_inbox_ttl: "10m", max_inbox_ttl: "24h" });
    const got = await t.call("GET", `/orgs/${created.body.id}`, { actor: owner });
    expect(got.status).toBe(200);
    expect(got.body).toEqual(created.body);
    const hidden = await t.call<{ error: string; code: string }>("GET", `/orgs/${created.body.id}`, { actor: outsider });
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ error: "organization not found", code: "not_found" });
  });

  it("when a name's slug is taken, then the org gets a suffixed slug", async () => {
    const name = `Dup ${randomUUID().slice(0, 8)}`;
    const first = await t.call<{ slug: string }>("POST", "/orgs", { actor: owner, body: { name } });
    const second = await t.call<{ slug: string }>("POST", "/orgs", { actor: owner, body: { name } });
    expect(second.status).toBe(201);
    expect(second.body.slug).toMatch(new RegExp(`^${first.body.slug}-[0-9a-f]{6}$`));
  });

  it("when a slug is chosen twice, then the second create is a 409 and only the first is audited", async () => {
    const slug = `s-${randomUUID().slice(0, 8)}`;
    const first = await t.call<{ id: string }>("POST", "/orgs", { actor: owner, body: { name: "A", slug } });
    expect(first.status).toBe(201);
    const again = await t.call<{ error: string; code: string }>("POST", "/orgs", { actor: owner, body: { name: "B", slug } });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error: "organization slug already taken", code: "conflict" });
    // the outbox row is written in the create's transaction, so the 409 has already rolled its row back
    const { rows } = await t.infra.pool!.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM outbox_events WHERE payload->>'type' = 'audit.recorded' AND payload->'data'->'metadata'->>'slug' = $1`,
      [slug],
    );
    expect(rows[0]?.n).toBe(1);
  });

  it("when a request has no internal context or a bad body, then it is refused in the envelope", async () => {
    expect((await t.call("POST", "/orgs", { body: { name: "x" } })).status).toBe(401);
    const bad = await t.call<{ code: string; details: unknown[] }>("POST", "/orgs", { actor: owner, body: { name: "" } });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("validation_error");
    expect(bad.body.details.length).toBeGreaterThan(0);
  });

  it("when teams are created, then the creator leads them and the list is paginated", async () => {
    const { orgId, teamId } = await orgTeamDomain(t, owner);
    const second = await t.call<{ id: string }>("POST", `/orgs/${orgId}/teams`, { actor: owner, body: { name: "Second" } });
    const page = await t.call<{
      data: Array<{ id: string; member_count: number }>;
      total: number;
      page: number;
      per_page: number;
      total_pages: number;
    }>("GET", `/orgs/${orgId}/teams?per_page=1`, { actor: owner });
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ total: 2, page: 1, per_page: 1, total_pages: 2 });
    expect(page.body.data).toEqual([expect.objectContaining({ id: teamId, member_count: 1 })]);
    const next = await t.call<{ data: Array<{ id: string }> }>("GET", `/orgs/${orgId}/teams?per_page=1&page=2`, { actor: owner });
    expect(next.body.data.map((x) => x.id)).toEqual([second.body.id]);
    expect((await t.call("GET", `/orgs/${orgId}/teams?per_page=101`, { actor: owner })).status).toBe(400);
    expect((await t.call("GET", `/orgs/${orgId}/teams`, { actor: outsider })).status).toBe(404);
  });

  it("when a team slug is chosen twice in one org, then the second is a 409; another org may use it", async () => {
    const { orgId } = await orgTeamDomain(t, owner);
    const other = await orgTeamDomain(t, owner);
    const body = { name: "Ops", slug: "ops" };
    expect((await t.call("POST", `/orgs/${orgId}/teams`, { actor: owner, body })).status).toBe(201);
    const again = await t.call<{ error: string }>("POST", `/orgs/${orgId}/teams`, { actor: owner, body: { name: "Ops two", slug: "ops" } });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe("team slug already taken in this organization");
    expect((await t.call("POST", `/orgs/${other.orgId}/teams`, { actor: owner, body })).status).toBe(201);
  });

  it("when an outsider creates a team in an org, then it is a 404 and nothing is written", async () => {
    const { orgId } = await orgTeamDomain(t, owner);
    const refused = await t.call<{ error: string }>("POST", `/orgs/${orgId}/teams`, { actor: outsider, body: { name: "Mine" } });
    expect(refused.status).toBe(404);
    expect(refused.body.error).toBe("organization not found");
    const page = await t.call<{ total: number }>("GET", `/orgs/${orgId}/teams`, { actor: owner });
    expect(page.body.total).toBe(1);
  });

  it("when an org and a team are created, then each is audited with the actor, client IP and target, and published", async () => {
    const org = await t.call<{ id: string; slug: string }>("POST", "/orgs", {
      actor: owner,
      body: { name: "Audited" },
      clientIp: "203.0.113.7",
    });
    const team = await t.call<{ id: string }>("POST", `/orgs/${org.body.id}/teams`, {
      actor: owner,
      body: { name: "Blue" },
      clientIp: "203.0.113.7",
    });
    const audits = await waitFor(async () => {
      const found = await auditsOf(t, org.body.id);
      return found.length === 2 && found.every((a) => a.published) ? found : null;
    });
    const actor = {
      actor_user_id: owner.user_id,
      actor_api_key_id: null,
      ip_address: "203.0.113.7",
      actor_email: owner.email,
      user_agent: expect.any(String) as string,
    };
    expect(audits.map((a) => a.event)).toEqual([
      expect.objectContaining({
        org_id: org.body.id,
        team_id: null,
        data: {
          ...actor,
          action: "org.created",
          target_type: "org",
          target_id: org.body.id,
          metadata: { name: "Audited", slug: org.body.slug },
        },
      }),
      expect.objectContaining({
        org_id: org.body.id,
        team_id: team.body.id,
        data: { ...actor, action: "team.created", target_type: "team", target_id: team.body.id, metadata: { name: "Blue" } },
      }),
    ]);
  });
});
