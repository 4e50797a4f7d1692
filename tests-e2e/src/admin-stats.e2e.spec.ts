import { randomBytes } from "node:crypto";
import { waitFor } from "@burnbox/test-kit";
import { apiClient, openSocket, sendMail } from "./clients";
import { SharedSystem } from "./shared-system";
import { createInbox, registerAdmin, registerUser, teamWithDomain } from "./world";

interface AdminStats {
  total_emails: number;
  active_inboxes: number;
  total_domains: number;
  total_users: number;
  total_teams: number;
  storage_used_bytes: number;
}
const FIELDS = ["active_inboxes", "storage_used_bytes", "total_domains", "total_emails", "total_teams", "total_users"];

/** Spec 2.7 and 6.5: GET /admin/stats and /ws/admin-stats, for system admins only and never through an API key. */
describe("admin statistics through the gateway", () => {
  const system = SharedSystem.attach();
  const api = apiClient(system.gatewayUrl);
  let admin: Awaited<ReturnType<typeof registerAdmin>>;
  let adminKey: string;

  const ticket = async (token: string) => {
    const res = await api<{ ticket: string }>("POST", "/ws/ticket", { token });
    expect(res.status).toBe(201);
    return res.body.ticket;
  };
  const stream = (path: string, t: string) => openSocket(`${system.wsUrl}/api/v1/ws/${path}?ticket=${t}`);

  beforeAll(async () => {
    admin = await registerAdmin(api, system);
    const org = await api<{ id: string }>("POST", "/orgs", { token: admin.token, body: { name: "Stats org" } });
    const team = await api<{ id: string }>("POST", `/orgs/${org.body.id}/teams`, { token: admin.token, body: { name: "Ops" } });
    const key = await api<{ raw_key: string }>("POST", `/orgs/${org.body.id}/teams/${team.body.id}/api-keys`, {
      token: admin.token,
      body: { name: "admin key", scopes: ["team.inboxes.view", "team.emails.view", "team.analytics.view"] },
    });
    expect(key.status).toBe(201);
    adminKey = key.body.raw_key;
  });

  it("when a system admin asks, then the 2.7 fields come; a registration shows as one more user within 5 s", async () => {
    const before = await api<AdminStats>("GET", "/admin/stats", { token: admin.token });
    expect(before.status).toBe(200);
    expect(Object.keys(before.body).sort()).toEqual(FIELDS);
    for (const f of FIELDS) expect(Number.isInteger(before.body[f as keyof AdminStats])).toBe(true);
    await registerUser(api, "counted");
    const after = await waitFor(
      async () => {
        const res = await api<AdminStats>("GET", "/admin/stats", { token: admin.token });
        return res.body.total_users > before.body.total_users ? res.body : null;
      },
      { what: "the new user in the stats", timeoutMs: 5_000 },
    );
    expect(after.total_users).toBe(before.body.total_users + 1);
  });

  it("when mail and an org arrive, then the platform totals grow with them", async () => {
    const before = (await api<AdminStats>("GET", "/admin/stats", { token: admin.token })).body;
    const world = await teamWithDomain(api);
    const inbox = await createInbox(api, world.owner.token, world.assignmentId, `stats-${randomBytes(3).toString("hex")}`);
    expect((await sendMail(system.ports.smtp, { from: "a@stats.test", to: inbox.full_address, subject: "s", text: "t" })).data?.code).toBe(
      250,
    );
    const after = await waitFor(
      async () => {
        const s = (await api<AdminStats>("GET", "/admin/stats", { token: admin.token })).body;
        return s.total_emails > before.total_emails && s.active_inboxes > before.active_inboxes ? s : null;
      },
      { what: "the mail in the stats", timeoutMs: 5_000 },
    );
    expect(after.total_teams).toBeGreaterThanOrEqual(before.total_teams + 1);
    expect(after.total_domains).toBeGreaterThanOrEqual(before.total_domains + 1);
    expect(after.storage_used_bytes).toBeGreaterThan(before.storage_used_bytes);
  });

  it("when a normal user or an admin's API key asks for /admin/stats, then 403 forbidden", async () => {
    const user = await registerUser(api, "plain");
    const plain = await api<{ code: string }>("GET", "/admin/stats", { token: user.token });
    expect([plain.status, plain.body.code]).toEqual([403, "forbidden"]);
    const keyed = await api<{ code: string }>("GET", "/admin/stats", { token: adminKey });
    expect([keyed.status, keyed.body.code]).toEqual([403, "forbidden"]);
  });

  it("when a system admin opens /ws/admin-stats, then a frame comes at once and the next ones follow the figures", async () => {
    const s = await stream("admin-stats", await ticket(admin.token));
    try {
      await waitFor(() => s.frames.length >= 1, { what: "the first frame", timeoutMs: 1_000 });
      expect(s.frames[0]?.type).toBe("admin.stats");
      expect(Object.keys(s.frames[0]!.data).sort()).toEqual(FIELDS);
      const users = s.frames[0]!.data.total_users as number;
      await registerUser(api, "streamed");
      // the shared system sends a frame every second (ws.admin_stats_interval_ms), not every 10 s
      await waitFor(() => s.frames.some((f) => (f.data.total_users as number) === users + 1), {
        what: "a frame with the new user",
        timeoutMs: 5_000,
      });
    } finally {
      s.ws.close();
    }
  });

  it("when a normal user's ticket or an admin's API-key ticket opens /ws/admin-stats, then the upgrade is refused", async () => {
    const user = await registerUser(api, "nostats");
    await expect(stream("admin-stats", await ticket(user.token))).rejects.toThrow("upgrade refused: 403");
    // the key may take a ticket, but the ticket keeps the key's credential: never admin
    await expect(stream("admin-stats", await ticket(adminKey))).rejects.toThrow("upgrade refused: 403");
    await expect(stream("notifications", await ticket(adminKey))).rejects.toThrow("upgrade refused: 403");
  });

  it("when an API-key ticket lacks the read scope, then the inbox stream refuses it; with it, the stream opens", async () => {
    const world = await teamWithDomain(api);
    const inbox = await createInbox(api, world.owner.token, world.assignmentId, `ws-${randomBytes(3).toString("hex")}`);
    const keyWith = async (scopes: string[]) =>
      (
        await api<{ raw_key: string }>("POST", `/orgs/${world.orgId}/teams/${world.teamId}/api-keys`, {
          token: world.owner.token,
          body: { name: `ws ${scopes.join(" ")}`, scopes },
        })
      ).body.raw_key;
    const noRead = await keyWith(["team.inboxes.view"]);
    await expect(stream(`inboxes/${inbox.id}`, await ticket(noRead))).rejects.toThrow("upgrade refused: 403");
    const read = await stream(`inboxes/${inbox.id}`, await ticket(await keyWith(["team.emails.view"])));
    read.ws.close();
  });
});
