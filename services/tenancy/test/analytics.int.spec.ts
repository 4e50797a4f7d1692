import { randomUUID } from "node:crypto";
import { nothingExtracted, RpcName, type AdminStats, type DomainEvent } from "@burnbox/contracts";
import { poolSql } from "@burnbox/service-kit/data";
import { newEvent, rpcRequest, serveRpc } from "@burnbox/service-kit/messaging";
import { makeActor } from "@burnbox/test-kit";
import { AnalyticsCounters } from "../src/data/analytics.repository";
import { deliver, handledThrough, orgTeamDomain, startTenancy, type Tenancy } from "./support";

interface DayCount {
  date: string;
  count: number;
}

const today = () => new Date().toISOString().slice(0, 10);

describe("analytics kept from events", () => {
  let t: Tenancy;
  let identity: { stop(): Promise<void> };
  const owner = makeActor();
  const admin = makeActor({ is_system_admin: true });
  let users = 7;

  beforeAll(async () => {
    t = await startTenancy();
    // identity's side of the admin statistics: how many accounts exist
    identity = serveRpc(t.infra.nc, t.ns, RpcName.countUsers, () => Promise.resolve({ total_users: users }), t.infra.logger);
  });
  afterAll(async () => {
    await identity?.stop();
    await t?.stop();
  });

  const durable = (name: string) => `tenancy-analytics-${name}`;
  /** Delivers the events and waits until each one's consumer has finished it. */
  async function handled(...events: DomainEvent[]): Promise<void> {
    for (const e of events) {
      const seq = await deliver(t, e);
      await handledThrough(t, durable(e.type.replace(".", "-")), seq);
    }
  }

  const received = (orgId: string, teamId: string, to: string, opts: { from?: string; bytes?: number; at?: Date } = {}) =>
    newEvent("email.received", {
      org_id: orgId,
      team_id: teamId,
      data: {
        email_id: randomUUID(),
        inbox_id: randomUUID(),
        team_id: teamId,
        from: opts.from ?? "alice@sender.example",
        to,
        subject: "Hi",
        received_at: (opts.at ?? new Date()).toISOString(),
        size_bytes: opts.bytes ?? 100,
        extracted: nothingExtracted(),
      },
    });
  const created = (orgId: string, teamId: string, address: string) =>
    newEvent("inbox.created", {
      org_id: orgId,
      team_id: teamId,
      data: { inbox_id: randomUUID(), team_id: teamId, address: "a", full_address: address, expires_at: new Date().toISOString() },
    });
  const expired = (orgId: string, teamId: string, address: string) =>
    newEvent("inbox.expired", {
      org_id: orgId,
      team_id: teamId,
      data: { inbox_id: randomUUID(), team_id: teamId, full_address: address, expired_at: new Date().toISOString() },
    });
  const deleted = (orgId: string, teamId: string, address: string) =>
    newEvent("inbox.deleted", {
      org_id: orgId,
      team_id: teamId,
      data: { inbox_id: randomUUID(), team_id: teamId, full_address: address, deleted_at: new Date().toISOString() },
    });

  it("when mail arrives (one event twice), then totals, today's point, the peak hour, senders and the domain series count each email once", async () => {
    const { orgId, teamId, domain } = await orgTeamDomain(t, owner);
    const to = `x@${domain.domain_name}`;
    const first = received(orgId, teamId, to, { bytes: 300 });
    await handled(first, first, received(orgId, teamId, to, { from: "bob@Other.Example", bytes: 50 }));

    const org = await t.call<Record<string, unknown>>("GET", `/orgs/${orgId}/analytics`, { actor: owner });
    expect(org.status).toBe(200);
    expect(org.body).toMatchObject({ total_emails: 2, storage_used_bytes: 350, total_domains: 1, total_teams: 1, total_members: 1 });
    expect(org.body.top_sender_domains).toEqual([
      { domain: "other.example", count: 1 },
      { domain: "sender.example", count: 1 },
    ]);

    const perDay = await t.call<{ data: DayCount[] }>("GET", `/orgs/${orgId}/analytics/emails-per-day?days=7`, { actor: owner });
    expect(perDay.body.data).toHaveLength(7);
    expect(perDay.body.data.at(-1)).toEqual({ date: today(), count: 2 });
    expect(perDay.body.data.slice(0, 6).every((d) => d.count === 0)).toBe(true);

    const insights = await t.call<{
      peak_hours: Array<{ hour: number; count: number }>;
      storage_per_day: Array<{ date: string; storage_bytes: number }>;
      domain_breakdown: Array<{ domain: string; count: number }>;
    }>("GET", `/orgs/${orgId}/analytics/insights?days=2`, { actor: owner });
    expect(insights.body.peak_hours).toHaveLength(24);
    expect(insights.body.peak_hours[new Date().getUTCHours()]?.count).toBeGreaterThanOrEqual(1);
    expect(insights.body.peak_hours.reduce((n, h) => n + h.count, 0)).toBe(2);
    expect(insights.body.storage_per_day.at(-1)).toEqual({ date: today(), storage_bytes: 350 });
    expect(insights.body.domain_breakdown).toEqual([{ domain: domain.domain_name, count: 2 }]);

    const series = await t.call<{ domain: string; data: DayCount[] }>(
      "GET",
      `/orgs/${orgId}/analytics/domain-series?domain=${domain.domain_name.toUpperCase()}&days=3`,
      { actor: owner },
    );
    expect(series.body.domain).toBe(domain.domain_name);
    expect(series.body.data.map((d) => d.count)).toEqual([0, 0, 2]);

    const team = await t.call("GET", `/orgs/${orgId}/teams/${teamId}/analytics`, { actor: owner });
    expect(team.body).toMatchObject({ total_emails: 2, total_members: 1 });
  });

  it("when many emails are counted at once (one event twice), then the grouped statements count each email once and answer each call", async () => {
    const { orgId, teamId, domain } = await orgTeamDomain(t, owner);
    const repo = t.service.deps.data.hot.analytics;
    const claim = () => ({ consumer: "grouped-test", eventId: randomUUID() });
    const at = { day: today(), hour: new Date().getUTCHours() };
    const twice = claim();
    const calls = [
      ...Array.from({ length: 30 }, (_, i) => ({ claim: claim(), bytes: 10, sender: i % 2 ? "a.example" : "b.example" })),
      { claim: twice, bytes: 5, sender: "a.example" },
      { claim: twice, bytes: 5, sender: "a.example" },
    ];
    const answers = await Promise.all(
      calls.map((c) =>
        repo.countEmailOnce(c.claim, { orgId, teamId }, at, { bytes: c.bytes, domain: domain.domain_name, senderDomain: c.sender }),
      ),
    );
    expect(answers.filter(Boolean)).toHaveLength(31);
    expect(answers.slice(-2).sort()).toEqual([false, true]);
    expect(await repo.countEmailOnce(twice, { orgId, teamId }, at, { bytes: 5, domain: null, senderDomain: null })).toBe(false);
    const org = await t.call<Record<string, unknown>>("GET", `/orgs/${orgId}/analytics`, { actor: owner });
    expect(org.body).toMatchObject({ total_emails: 31, storage_used_bytes: 305 });
    expect(org.body.top_sender_domains).toEqual([
      { domain: "a.example", count: 16 },
      { domain: "b.example", count: 15 },
    ]);
  });

  it("when another replica's counters are given the same email, then it is counted once, by whichever claims it first", async () => {
    const { orgId, teamId } = await orgTeamDomain(t, owner);
    const other = new AnalyticsCounters(poolSql(t.infra.pool as NonNullable<typeof t.infra.pool>));
    const claim = { consumer: "replica-test", eventId: randomUUID() };
    const at = { day: today(), hour: new Date().getUTCHours() };
    const mail = { bytes: 7, domain: null, senderDomain: "c.example" };
    const answers = await Promise.all([
      other.countEmailOnce(claim, { orgId, teamId }, at, mail),
      t.service.deps.data.hot.analytics.countEmailOnce(claim, { orgId, teamId }, at, mail),
    ]);
    expect(answers.sort()).toEqual([false, true]);
    expect(await other.countEmailOnce(claim, { orgId, teamId }, at, mail)).toBe(false);
    const org = await t.call<Record<string, unknown>>("GET", `/orgs/${orgId}/analytics`, { actor: owner });
    expect(org.body).toMatchObject({ total_emails: 1, storage_used_bytes: 7, top_sender_domains: [{ domain: "c.example", count: 1 }] });
  });

  it("when mail came on an earlier day, then it lands on that date of the series and outside a shorter window", async () => {
    const { orgId, teamId, domain } = await orgTeamDomain(t, owner);
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000);
    await handled(received(orgId, teamId, `y@${domain.domain_name}`, { at: twoDaysAgo }));
    const week = await t.call<{ data: DayCount[] }>("GET", `/orgs/${orgId}/teams/${teamId}/analytics/emails-per-day?days=7`, {
      actor: owner,
    });
    expect(week.body.data[4]).toEqual({ date: twoDaysAgo.toISOString().slice(0, 10), count: 1 });
    const two = await t.call<{ data: DayCount[] }>("GET", `/orgs/${orgId}/analytics/emails-per-day?days=2`, { actor: owner });
    expect(two.body.data.map((d) => d.count)).toEqual([0, 0]);
    const fallback = await t.call<{ data: DayCount[] }>("GET", `/orgs/${orgId}/analytics/emails-per-day`, { actor: owner });
    expect(fallback.body.data).toHaveLength(30);
  });

  it("when inboxes are created, expire and are deleted, then active falls and the lifetime total stays", async () => {
    const { orgId, teamId, domain } = await orgTeamDomain(t, owner);
    const address = `z@${domain.domain_name}`;
    const gone = expired(orgId, teamId, address);
    await handled(created(orgId, teamId, address), created(orgId, teamId, address), created(orgId, teamId, address), gone, gone);
    await handled(deleted(orgId, teamId, address));
    const team = await t.call("GET", `/orgs/${orgId}/teams/${teamId}/analytics`, { actor: owner });
    expect(team.body).toMatchObject({ total_inboxes: 3, active_inboxes: 1 });
    const insights = await t.call<{ inboxes_per_day: DayCount[] }>("GET", `/orgs/${orgId}/teams/${teamId}/analytics/insights?days=1`, {
      actor: owner,
    });
    expect(insights.body.inboxes_per_day).toEqual([{ date: today(), count: 3 }]);
  });

  it("when days is 0, 366, not an integer or repeated, then 400; a domain-series without domain is 400, another org's domain 404", async () => {
    const { orgId, teamId } = await orgTeamDomain(t, owner);
    const other = await orgTeamDomain(t, makeActor());
    for (const days of ["0", "366", "abc", "1.5", "-1", "", "1e2"]) {
      const res = await t.call<{ code: string }>("GET", `/orgs/${orgId}/analytics/emails-per-day?days=${days}`, { actor: owner });
      expect([days, res.status, res.body.code]).toEqual([days, 400, "validation_error"]);
    }
    expect((await t.call("GET", `/orgs/${orgId}/teams/${teamId}/analytics/insights?days=366`, { actor: owner })).status).toBe(400);
    expect((await t.call("GET", `/orgs/${orgId}/analytics/insights?days=1&days=2`, { actor: owner })).status).toBe(400);
    expect((await t.call("GET", `/orgs/${orgId}/analytics/insights?days=365`, { actor: owner })).status).toBe(200);
    expect((await t.call("GET", `/orgs/${orgId}/analytics/domain-series`, { actor: owner })).status).toBe(400);
    const foreign = await t.call("GET", `/orgs/${orgId}/analytics/domain-series?domain=${other.domain.domain_name}`, { actor: owner });
    expect(foreign.status).toBe(404);
    expect((await t.call("GET", `/orgs/${orgId}/analytics/domain-series?domain=nowhere.example`, { actor: owner })).status).toBe(404);
  });

  it("when an outsider or an API key asks for org analytics, then the answer is the unknown org's or 403", async () => {
    const { orgId, teamId } = await orgTeamDomain(t, owner);
    const outsider = makeActor();
    const unknown = await t.call("GET", `/orgs/${randomUUID()}/analytics`, { actor: outsider });
    const foreign = await t.call("GET", `/orgs/${orgId}/analytics`, { actor: outsider });
    expect([foreign.status, foreign.body]).toEqual([unknown.status, unknown.body]);
    expect((await t.call("GET", `/orgs/${orgId}/teams/${teamId}/analytics`, { actor: outsider })).status).toBe(404);
    const key = { ...owner, api_key: { id: randomUUID(), team_id: teamId, scopes: ["team.analytics.view"] } };
    expect((await t.call("GET", `/orgs/${orgId}/analytics`, { actor: key })).status).toBe(403);
    expect((await t.call("GET", `/orgs/${orgId}/teams/${teamId}/analytics`, { actor: key })).status).toBe(200);
    const unscoped = { ...owner, api_key: { id: randomUUID(), team_id: teamId, scopes: ["team.inboxes.view"] } };
    expect((await t.call("GET", `/orgs/${orgId}/teams/${teamId}/analytics`, { actor: unscoped })).status).toBe(403);
  });

  it("when an org is deleted, then its aggregates go; when a team is deleted, its inboxes stop counting as active", async () => {
    const { orgId, teamId, domain } = await orgTeamDomain(t, owner);
    const address = `w@${domain.domain_name}`;
    await handled(created(orgId, teamId, address), received(orgId, teamId, address));
    const repo = t.service.deps.data.repos.analytics;
    await handled(newEvent("team.deleted", { org_id: orgId, team_id: teamId, data: { team_id: teamId } }));
    expect(await repo.totals({ orgId })).toMatchObject({ emails: 1, inboxesCreated: 1, activeInboxes: 0 });
    await handled(newEvent("org.deleted", { org_id: orgId, team_id: null, data: { org_id: orgId, team_ids: [teamId] } }));
    expect(await repo.totals({ orgId })).toEqual({ emails: 0, emailBytes: 0, inboxesCreated: 0, activeInboxes: 0 });
  });

  it("when a team moves to another org, then its counters follow it and the old org keeps its domain figures", async () => {
    const from = await orgTeamDomain(t, owner);
    const to = await orgTeamDomain(t, owner);
    const address = `u@${from.domain.domain_name}`;
    await handled(created(from.orgId, from.teamId, address), received(from.orgId, from.teamId, address));
    await handled(
      newEvent("team.transferred", {
        org_id: to.orgId,
        team_id: from.teamId,
        data: { team_id: from.teamId, from_org_id: from.orgId, to_org_id: to.orgId },
      }),
    );
    const moved = await t.call("GET", `/orgs/${to.orgId}/analytics`, { actor: owner });
    expect(moved.body).toMatchObject({ total_emails: 1, total_inboxes: 1, active_inboxes: 1 });
    const left = await t.call<{ total_emails: number; top_sender_domains: unknown[] }>("GET", `/orgs/${from.orgId}/analytics`, {
      actor: owner,
    });
    expect(left.body).toMatchObject({ total_emails: 0, top_sender_domains: [{ domain: "sender.example", count: 1 }] });
  });

  it("when a system admin asks for the stats, then they follow the counters; others and API keys get 403; the RPC answers the same", async () => {
    const before = await t.call<AdminStats>("GET", "/admin/stats", { actor: admin });
    expect(before.status).toBe(200);
    expect(Object.keys(before.body).sort()).toEqual(
      ["active_inboxes", "storage_used_bytes", "total_domains", "total_emails", "total_teams", "total_users"].sort(),
    );
    const { orgId, teamId, domain } = await orgTeamDomain(t, owner);
    const address = `v@${domain.domain_name}`;
    await handled(created(orgId, teamId, address), received(orgId, teamId, address, { bytes: 1234 }));
    users += 1;
    const after = await t.call<AdminStats>("GET", "/admin/stats", { actor: admin });
    expect(after.body).toEqual({
      total_emails: before.body.total_emails + 1,
      active_inboxes: before.body.active_inboxes + 1,
      total_domains: before.body.total_domains + 1,
      total_users: before.body.total_users + 1,
      total_teams: before.body.total_teams + 1,
      storage_used_bytes: before.body.storage_used_bytes + 1234,
    });
    expect(await rpcRequest(t.infra.nc, t.ns, RpcName.adminStats, {})).toEqual(after.body);
    expect((await t.call("GET", "/admin/stats", { actor: owner })).status).toBe(403);
    const key = { ...admin, api_key: { id: randomUUID(), team_id: teamId, scopes: ["team.analytics.view"] } };
    expect((await t.call("GET", "/admin/stats", { actor: key })).status).toBe(403);
  });
});
