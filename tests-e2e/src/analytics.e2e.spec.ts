import { randomBytes } from "node:crypto";
import { waitFor } from "@burnbox/test-kit";
import { apiClient, sendMail } from "./clients";
import { SharedSystem } from "./shared-system";
import { createInbox, registerAdmin, registerUser, teamWithDomain } from "./world";

interface OrgAnalytics {
  total_emails: number;
  total_inboxes: number;
  active_inboxes: number;
  total_domains: number;
  total_teams: number;
  total_members: number;
  storage_used_bytes: number;
  top_sender_domains: Array<{ domain: string; count: number }>;
}
interface DayCount {
  date: string;
  count: number;
}
interface Insights {
  inboxes_per_day: DayCount[];
  peak_hours: Array<{ hour: number; count: number }>;
  domain_breakdown?: Array<{ domain: string; count: number }>;
  storage_per_day: Array<{ date: string; storage_bytes: number }>;
}

const today = () => new Date().toISOString().slice(0, 10);
const suffix = () => randomBytes(3).toString("hex");

/** Analytics (contract notes): mail sent over SMTP to two teams' inboxes, counted from events, kept after the inboxes go. */
describe("analytics through the gateway", () => {
  const system = SharedSystem.attach();
  const api = apiClient(system.gatewayUrl);
  let world: Awaited<ReturnType<typeof teamWithDomain>>;
  let ops: { teamId: string; assignmentId: string };
  let org: string;
  const inboxes: Record<"qa" | "ops" | "short", { id: string; full_address: string }> = {} as never;

  const get = <T>(path: string, token = world.owner.token) => api<T>("GET", path, { token });
  const orgAnalytics = async () => (await get<OrgAnalytics>(org)).body;

  beforeAll(async () => {
    world = await teamWithDomain(api);
    org = `/orgs/${world.orgId}/analytics`;
    const { owner, orgId } = world;
    const team = await api<{ id: string }>("POST", `/orgs/${orgId}/teams`, { token: owner.token, body: { name: "Ops" } });
    const domains = await api<{ data: Array<{ id: string; domain_name: string }> }>("GET", `/orgs/${orgId}/domains`, {
      token: owner.token,
    });
    const domainId = domains.body.data.find((d) => d.domain_name === world.domainName)?.id;
    const assignment = await api<{ id: string }>("POST", `/orgs/${orgId}/teams/${team.body.id}/domains`, {
      token: owner.token,
      body: { domain_id: domainId },
    });
    ops = { teamId: team.body.id, assignmentId: assignment.body.id };
    inboxes.qa = await createInbox(api, owner.token, world.assignmentId, `qa-${suffix()}`);
    inboxes.ops = await createInbox(api, owner.token, ops.assignmentId, `ops-${suffix()}`);
    const short = await api<{ id: string; full_address: string }>("POST", "/inboxes", {
      token: owner.token,
      body: { domain_assignment_id: world.assignmentId, alias: `short-${suffix()}`, ttl: "4s" },
    });
    expect(short.status).toBe(201);
    inboxes.short = short.body;
    const mail = (to: string, from: string) => sendMail(system.ports.smtp, { from, to, subject: "Numbers", text: "count me" });
    // the short-lived inbox first, well within its TTL
    for (const [to, from] of [
      [inboxes.short.full_address, "dave@three.sender.test"],
      [inboxes.qa.full_address, "alice@one.sender.test"],
      [inboxes.qa.full_address, "carol@one.sender.test"],
      [inboxes.ops.full_address, "bob@two.sender.test"],
    ] as const) {
      const sent = await mail(to, from);
      expect([to, sent.rcpt.code, sent.data?.code]).toEqual([to, 250, 250]);
    }
    // the aggregates follow the events within a few seconds
    await waitFor(async () => (await orgAnalytics()).total_emails === 4, { what: "the org to count four emails", timeoutMs: 10_000 });
  });

  it("when mail reached two teams, then the org and team totals count it, with the top sender domains", async () => {
    const totals = await orgAnalytics();
    expect(totals).toMatchObject({ total_emails: 4, total_inboxes: 3, total_domains: 1, total_teams: 2, total_members: 1 });
    expect(totals.storage_used_bytes).toBeGreaterThan(4 * "count me".length);
    expect(totals.top_sender_domains).toEqual([
      { domain: "one.sender.test", count: 2 },
      { domain: "three.sender.test", count: 1 },
      { domain: "two.sender.test", count: 1 },
    ]);
    const qa = await get<Record<string, number>>(`/orgs/${world.orgId}/teams/${world.teamId}/analytics`);
    expect(qa.body).toMatchObject({ total_emails: 3, total_inboxes: 2, total_members: 1 });
    const opsTeam = await get<Record<string, number>>(`/orgs/${world.orgId}/teams/${ops.teamId}/analytics`);
    expect(opsTeam.body).toMatchObject({ total_emails: 1, total_inboxes: 1, active_inboxes: 1 });
  });

  it("when the series are read, then they have exactly `days` UTC points ending today, today's counting the mail and the rest zero", async () => {
    const week = await get<{ data: DayCount[] }>(`${org}/emails-per-day?days=7`);
    expect(week.body.data).toHaveLength(7);
    expect(week.body.data.at(-1)).toEqual({ date: today(), count: 4 });
    expect(week.body.data.slice(0, 6).map((d) => d.count)).toEqual([0, 0, 0, 0, 0, 0]);
    expect(new Date(`${week.body.data[0]!.date}T00:00:00Z`).getTime()).toBe(new Date(`${today()}T00:00:00Z`).getTime() - 6 * 86_400_000);
    expect((await get<{ data: DayCount[] }>(`${org}/emails-per-day`)).body.data).toHaveLength(30);
    const team = await get<{ data: DayCount[] }>(`/orgs/${world.orgId}/teams/${ops.teamId}/analytics/emails-per-day?days=3`);
    expect(team.body.data.map((d) => d.count)).toEqual([0, 0, 1]);

    const insights = await get<Insights>(`${org}/insights?days=2`);
    expect(insights.body.peak_hours).toHaveLength(24);
    expect(insights.body.peak_hours.map((h) => h.hour)).toEqual([...Array(24).keys()]);
    expect(insights.body.peak_hours.reduce((n, h) => n + h.count, 0)).toBe(4);
    const peak = insights.body.peak_hours.reduce((a, b) => (b.count > a.count ? b : a));
    expect([new Date().getUTCHours(), (new Date().getUTCHours() + 23) % 24]).toContain(peak.hour);
    expect(insights.body.inboxes_per_day).toEqual([
      { date: insights.body.inboxes_per_day[0]!.date, count: 0 },
      { date: today(), count: 3 },
    ]);
    expect(insights.body.domain_breakdown).toEqual([{ domain: world.domainName, count: 4 }]);
    expect(insights.body.storage_per_day.at(-1)).toEqual({ date: today(), storage_bytes: (await orgAnalytics()).storage_used_bytes });
    const teamInsights = await get<Insights>(`/orgs/${world.orgId}/teams/${world.teamId}/analytics/insights?days=1`);
    expect(Object.keys(teamInsights.body).sort()).toEqual(["inboxes_per_day", "peak_hours", "storage_per_day"]);
    expect(teamInsights.body.inboxes_per_day).toEqual([{ date: today(), count: 2 }]);

    const series = await get<{ domain: string; data: DayCount[] }>(`${org}/domain-series?domain=${world.domainName}&days=5`);
    expect(series.body).toEqual({ domain: world.domainName, data: expect.any(Array) as unknown });
    expect(series.body.data.map((d) => d.count)).toEqual([0, 0, 0, 0, 4]);
  });

  it("when days is 0, 366 or not a number, or domain-series lacks its domain, then 400; another org's domain is 404", async () => {
    for (const path of [`${org}/emails-per-day`, `${org}/insights`, `/orgs/${world.orgId}/teams/${world.teamId}/analytics/insights`]) {
      for (const days of ["0", "366", "abc"]) {
        const res = await get<{ code: string }>(`${path}?days=${days}`);
        expect([path, days, res.status, res.body.code]).toEqual([path, days, 400, "validation_error"]);
      }
    }
    expect((await get(`${org}/emails-per-day?days=365`)).status).toBe(200);
    expect((await get(`${org}/domain-series`)).status).toBe(400);
    const other = await teamWithDomain(api);
    expect((await get(`${org}/domain-series?domain=${other.domainName}`)).status).toBe(404);
  });

  it("when another org's owner or a member without the permission asks, then 404 or 403", async () => {
    const other = await teamWithDomain(api);
    const foreign = await get<{ code: string }>(org, other.owner.token);
    expect(foreign.status).toBe(404);
    expect((await get(`/orgs/${world.orgId}/teams/${world.teamId}/analytics`, other.owner.token)).status).toBe(404);
    // a team member whose (custom) team role lacks team.analytics.view
    const admin = await registerAdmin(api, system);
    const role = `noanalytics_${suffix()}`;
    const created = await api("POST", "/admin/roles", {
      token: admin.token,
      body: { scope: "team", value: role, label: "No analytics", rank: 5, permissions: ["team.view"] },
    });
    expect(created.status).toBe(201);
    const user = await registerUser(api, "noanalytics");
    const owner = world.owner.token;
    expect(
      (await api("POST", `/orgs/${world.orgId}/members/add`, { token: owner, body: { user_id: user.userId, role: "member" } })).status,
    ).toBe(201);
    const team = `/orgs/${world.orgId}/teams/${world.teamId}`;
    expect((await api("POST", `${team}/members`, { token: owner, body: { user_id: user.userId, role } })).status).toBe(201);
    const refused = await get<{ code: string }>(`${team}/analytics`, user.token);
    expect([refused.status, refused.body.code]).toEqual([403, "forbidden"]);
    expect((await get(`${team}/analytics/emails-per-day`, user.token)).status).toBe(403);
    // an API key never reads org analytics (no scope stands for them)
    const key = await api<{ raw_key: string }>("POST", `${team}/api-keys`, {
      token: owner,
      body: { name: "analytics", scopes: ["team.analytics.view"] },
    });
    expect((await get(org, key.body.raw_key)).status).toBe(403);
    expect((await get(`${team}/analytics`, key.body.raw_key)).status).toBe(200);
  });

  it("when an inbox is deleted and another expires, then the lifetime counts stay and only the active count falls", async () => {
    expect((await api("DELETE", `/inboxes/${inboxes.qa.id}`, { token: world.owner.token })).status).toBe(204);
    // the short inbox lapses within its 4 s TTL and the cleanup interval
    await waitFor(async () => (await orgAnalytics()).active_inboxes === 1, { what: "two inboxes to stop being active", timeoutMs: 20_000 });
    expect((await get(`/inboxes/${inboxes.short.id}`)).status).toBe(404);
    const after = await orgAnalytics();
    expect(after).toMatchObject({ total_emails: 4, total_inboxes: 3, active_inboxes: 1 });
    const week = await get<{ data: DayCount[] }>(`${org}/emails-per-day?days=7`);
    expect(week.body.data.at(-1)).toEqual({ date: today(), count: 4 });
    const qa = await get<Record<string, number>>(`/orgs/${world.orgId}/teams/${world.teamId}/analytics`);
    expect(qa.body).toMatchObject({ total_emails: 3, total_inboxes: 2, active_inboxes: 0 });
  });
});
