import { randomUUID } from "node:crypto";
import path from "node:path";
import { RpcName, type Actor } from "@burnbox/contracts";
import { newEvent, publishEvent, rpcRequest, type Infra } from "@burnbox/service-kit";
import { makeActor, startTestService, waitFor, type TestService } from "@burnbox/test-kit";
import { startService, type RunningService } from "../src/app";
import { loadTenancyConfig, type TenancyConfig } from "../src/config";

const TRUSTED = "trusted.burnbox.test";

describe("tenancy on real Postgres and NATS", () => {
  let t: TestService<TenancyConfig, RunningService>;
  let infra: Infra;
  let ns: string;
  let call: TestService<TenancyConfig, RunningService>["call"];
  const owner = makeActor();
  const outsider = makeActor();

  beforeAll(async () => {
    t = await startTestService({
      prefix: "ten",
      load: (o) => loadTenancyConfig({}, o),
      start: startService,
      migrationsDir: path.join(__dirname, "..", "prisma", "migrations"),
      overrides: () => ({ domains: { trusted: [TRUSTED] } }),
    });
    ({ infra, ns, call } = t);
  });

  afterAll(async () => {
    await t?.stop();
  });

  async function orgTeamDomain(actor: Actor = owner) {
    const org = await call<{ id: string }>("POST", "/orgs", { actor, body: { name: "Acme QA" } });
    const team = await call<{ id: string }>("POST", `/orgs/${org.body.id}/teams`, { actor, body: { name: "Checkout" } });
    const domain = await call<{ id: string; status: string }>("POST", `/orgs/${org.body.id}/domains`, {
      actor,
      body: { domain_name: `${randomUUID().slice(0, 8)}.${TRUSTED}` },
    });
    return { orgId: org.body.id, teamId: team.body.id, domain: domain.body };
  }

  it("when a user creates an org, then they own it and an outsider cannot see it", async () => {
    const created = await call<{ id: string; slug: string; settings: Record<string, unknown> }>("POST", "/orgs", {
      actor: owner,
      body: { name: "Acme Widgets" },
    });
    expect(created.status).toBe(201);
    expect(created.body.slug).toMatch(/^acme-widgets/);
    expect(created.body.settings).toMatchObject({ default_inbox_ttl: "10m", max_inbox_ttl: "24h" });
    expect((await call("GET", `/orgs/${created.body.id}`, { actor: owner })).status).toBe(200);
    const hidden = await call<{ error: string; code: string }>("GET", `/orgs/${created.body.id}`, { actor: outsider });
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ error: "organization not found", code: "not_found" });
  });

  it("when a slug is chosen twice, then the second create is a 409", async () => {
    const slug = `s-${randomUUID().slice(0, 8)}`;
    expect((await call("POST", "/orgs", { actor: owner, body: { name: "A", slug } })).status).toBe(201);
    const again = await call<{ code: string }>("POST", "/orgs", { actor: owner, body: { name: "B", slug } });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("conflict");
  });

  it("when a request has no internal context or a bad body, then it is refused in the envelope", async () => {
    expect((await call("POST", "/orgs", { body: { name: "x" } })).status).toBe(401);
    const bad = await call<{ code: string; details: unknown[] }>("POST", "/orgs", { actor: owner, body: { name: "" } });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("validation_error");
    expect(bad.body.details.length).toBeGreaterThan(0);
  });

  it("when teams are created, then the creator leads them and the list is paginated", async () => {
    const { orgId } = await orgTeamDomain();
    await call("POST", `/orgs/${orgId}/teams`, { actor: owner, body: { name: "Second" } });
    const page = await call<{ data: Array<{ member_count: number }>; total: number; page: number; per_page: number; total_pages: number }>(
      "GET",
      `/orgs/${orgId}/teams?per_page=1`,
      { actor: owner },
    );
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ total: 2, page: 1, per_page: 1, total_pages: 2 });
    expect(page.body.data[0]?.member_count).toBe(1);
    expect((await call("GET", `/orgs/${orgId}/teams?per_page=101`, { actor: owner })).status).toBe(400);
    expect((await call("GET", `/orgs/${orgId}/teams`, { actor: outsider })).status).toBe(404);
  });

  it("when a trusted domain is added, then it is verified and assignable; an untrusted one is not", async () => {
    const { orgId, teamId, domain } = await orgTeamDomain();
    expect(domain.status).toBe("verified");
    const assigned = await call<{ domain_id: string; access_level: string }>("POST", `/orgs/${orgId}/teams/${teamId}/domains`, {
      actor: owner,
      body: { domain_id: domain.id },
    });
    expect(assigned.status).toBe(201);
    expect(assigned.body).toMatchObject({ domain_id: domain.id, access_level: "full" });
    expect((await call("POST", `/orgs/${orgId}/teams/${teamId}/domains`, { actor: owner, body: { domain_id: domain.id } })).status).toBe(
      409,
    );

    const pending = await call<{ id: string; status: string; verification_record: string }>("POST", `/orgs/${orgId}/domains`, {
      actor: owner,
      body: { domain_name: `${randomUUID().slice(0, 8)}.example.com` },
    });
    expect(pending.body.status).toBe("pending_verification");
    expect(pending.body.verification_record).toMatch(/^burnbox-verify=[0-9a-f]{32}$/);
    const refused = await call<{ error: string }>("POST", `/orgs/${orgId}/teams/${teamId}/domains`, {
      actor: owner,
      body: { domain_id: pending.body.id },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/verified/);
  });

  it("answers the RBAC decision, the assignment and the actor's teams over NATS request/reply", async () => {
    const { orgId, teamId, domain } = await orgTeamDomain();
    const assignment = await call<{ id: string }>("POST", `/orgs/${orgId}/teams/${teamId}/domains`, {
      actor: owner,
      body: { domain_id: domain.id },
    });
    const ask = (actor: Actor, permission: string, team: string | null = teamId) =>
      rpcRequest(infra.nc, ns, RpcName.authorize, { actor, org_id: orgId, team_id: team, permission });
    expect(await ask(owner, "team.webhooks.manage")).toEqual({ allowed: true, reason: null });
    expect(await ask(outsider, "team.inboxes.view")).toEqual({ allowed: false, reason: "not_member" });
    expect(await ask(owner, "org.view", null)).toEqual({ allowed: true, reason: null });
    expect(await ask(owner, "team.view", randomUUID())).toEqual({ allowed: false, reason: "team_not_found" });
    const key = { ...owner, api_key: { id: randomUUID(), team_id: teamId, scopes: ["team.inboxes.view"] } };
    expect((await ask(key, "team.inboxes.view")).allowed).toBe(true);
    expect(await ask(key, "team.webhooks.view")).toEqual({ allowed: false, reason: "missing_permission" });

    const got = await rpcRequest(infra.nc, ns, RpcName.getAssignment, { assignment_id: assignment.body.id });
    expect(got.assignment).toMatchObject({
      org_id: orgId,
      team_id: teamId,
      domain_verified: true,
      default_ttl_seconds: 600,
      max_ttl_seconds: 86400,
    });
    expect((await rpcRequest(infra.nc, ns, RpcName.getAssignment, { assignment_id: randomUUID() })).assignment).toBeNull();

    const teams = await rpcRequest(infra.nc, ns, RpcName.listActorTeams, { actor: owner, permission: "team.inboxes.view" });
    expect(teams.teams).toContainEqual({ org_id: orgId, team_id: teamId });
    expect((await rpcRequest(infra.nc, ns, RpcName.listActorTeams, { actor: outsider, permission: "team.inboxes.view" })).teams).toEqual(
      [],
    );
  });

  it("when inbox events arrive (even twice), then the team and domain counters move once each", async () => {
    const { orgId, teamId } = await orgTeamDomain();
    const created = newEvent("inbox.created", {
      org_id: orgId,
      team_id: teamId,
      data: {
        inbox_id: randomUUID(),
        team_id: teamId,
        address: "a",
        full_address: `a@elsewhere.${TRUSTED}`,
        expires_at: new Date().toISOString(),
      },
    });
    await publishEvent(infra.js, ns, created);
    await publishEvent(infra.js, ns, { ...created });
    const team = await waitFor(async () => {
      const page = await call<{ data: Array<{ id: string; active_inboxes: number }> }>("GET", `/orgs/${orgId}/teams`, { actor: owner });
      const t = page.body.data.find((x) => x.id === teamId);
      return t && t.active_inboxes > 0 ? t : null;
    });
    expect(team.active_inboxes).toBe(1);
    await publishEvent(
      infra.js,
      ns,
      newEvent("inbox.expired", {
        org_id: orgId,
        team_id: teamId,
        data: {
          inbox_id: created.data.inbox_id,
          team_id: teamId,
          full_address: created.data.full_address,
          expired_at: new Date().toISOString(),
        },
      }),
    );
    await waitFor(async () => {
      const page = await call<{ data: Array<{ id: string; active_inboxes: number }> }>("GET", `/orgs/${orgId}/teams`, { actor: owner });
      return page.body.data.find((x) => x.id === teamId)?.active_inboxes === 0;
    });
  });
});
