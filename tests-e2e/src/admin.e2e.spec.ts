import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { apiClient } from "./clients";
import { SharedSystem } from "./shared-system";
import { registerAdmin, registerUser, teamWithDomain } from "./world";

type Envelope = { error: string; code: string };
type AdminOrg = { id: string; name: string; slug: string; member_count: number; team_count: number; domain_count: number };
type Page<T> = { data: T[]; total: number; page: number; per_page: number };

/** The admin console's platform views on the shared system: orgs, health, version (issue 15). */
describe("admin orgs, health and version", () => {
  const system = SharedSystem.attach();
  const api = apiClient(system.gatewayUrl);
  let admin: { token: string; userId: string };
  let adminKey: string;
  let user: { token: string };

  beforeAll(async () => {
    admin = await registerAdmin(api, system);
    user = await registerUser(api, "plain");
    const org = await api<{ id: string }>("POST", "/orgs", { token: admin.token, body: { name: "Admin key org" } });
    const team = await api<{ id: string }>("POST", `/orgs/${org.body.id}/teams`, { token: admin.token, body: { name: "Ops" } });
    const key = await api<{ raw_key: string }>("POST", `/orgs/${org.body.id}/teams/${team.body.id}/api-keys`, {
      token: admin.token,
      body: { name: "admin key", scopes: ["team.view"] },
    });
    if (key.status !== 201) throw new Error(`key: ${key.status} ${JSON.stringify(key.body)}`);
    adminKey = key.body.raw_key;
  });

  const routes = ["/admin/orgs", "/admin/health", "/admin/version"];

  it("when a normal user or a system admin's API key asks, then every admin view is 403 forbidden", async () => {
    for (const p of routes) {
      for (const token of [user.token, adminKey]) {
        const res = await api<Envelope>("GET", p, { token });
        expect({ p, status: res.status, code: res.body.code }).toEqual({ p, status: 403, code: "forbidden" });
      }
      expect((await api("GET", p)).status).toBe(401);
    }
  });

  it("when orgs exist, then /admin/orgs lists them with member, team and domain counts, filtered by q and paginated", async () => {
    const tag = randomBytes(4).toString("hex");
    const a = await teamWithDomain(api);
    await api("PATCH", `/orgs/${a.orgId}`, { token: a.owner.token, body: { name: `Counted ${tag} A` } });
    const bOwner = await registerUser(api, "borg");
    const b = await api<{ id: string }>("POST", "/orgs", { token: bOwner.token, body: { name: `Counted ${tag} B` } });

    const list = await api<Page<AdminOrg>>("GET", `/admin/orgs?q=${tag}`, { token: admin.token });
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(2);
    const byId = new Map(list.body.data.map((o) => [o.id, o]));
    expect(byId.get(a.orgId)).toMatchObject({ name: `Counted ${tag} A`, member_count: 1, team_count: 1, domain_count: 1 });
    expect(byId.get(b.body.id)).toMatchObject({ name: `Counted ${tag} B`, member_count: 1, team_count: 0, domain_count: 0 });

    const upper = await api<Page<AdminOrg>>("GET", `/admin/orgs?q=COUNTED%20${tag.toUpperCase()}`, { token: admin.token });
    expect(upper.body.total).toBe(2);
    const paged = await api<Page<AdminOrg>>("GET", `/admin/orgs?q=${tag}&per_page=1&page=2`, { token: admin.token });
    expect(paged.body).toMatchObject({ total: 2, page: 2, per_page: 1 });
    expect(paged.body.data).toHaveLength(1);
    const none = await api<Page<AdminOrg>>("GET", `/admin/orgs?q=no-such-${tag}`, { token: admin.token });
    expect(none.body).toMatchObject({ total: 0, data: [] });
    expect((await api("GET", "/admin/orgs?per_page=0", { token: admin.token })).status).toBe(400);
    const all = await api<Page<AdminOrg>>("GET", "/admin/orgs?per_page=100", { token: admin.token });
    expect(all.body.total).toBeGreaterThanOrEqual(2);
  });

  it("when asked for the version, then it is the service's package version (no commit or date unless the build set them)", async () => {
    const pkg = JSON.parse(readFileSync(path.resolve(__dirname, "..", "..", "services", "tenancy", "package.json"), "utf8")) as {
      version: string;
    };
    const res = await api<{ version: string; commit?: string; build_date?: string }>("GET", "/admin/version", { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ version: pkg.version });
  });

  it("when asked for health, then every process and dependency is listed with its latency, and no address or credential", async () => {
    const res = await api<{ status: string; uptime_s: number; services: Record<string, { status: string; latency_ms: number }> }>(
      "GET",
      "/admin/health",
      {
        token: admin.token,
      },
    );
    expect([200, 503]).toContain(res.status);
    const services = res.body.services;
    const processes = ["api-gateway", "identity", "tenancy", "inbox", "inbox-smtp", "webhook-dispatcher", "realtime-gateway"];
    const dependencies = ["postgres", "redis", "nats", "storage"];
    for (const n of [...processes, ...dependencies])
      expect({ n, ...services[n] }).toMatchObject({ n, status: "ok", latency_ms: expect.any(Number) });
    // the mailer is whatever another file last saved; the answer is 503 exactly when something is in error
    expect(services.mailer).toBeDefined();
    const anyError = Object.values(services).some((s) => s.status === "error");
    expect(res.status).toBe(anyError ? 503 : 200);
    expect(res.body.status).toBe(anyError ? "degraded" : "ok");
    expect(res.body.uptime_s).toBeGreaterThanOrEqual(0);
    expect(JSON.stringify(res.body)).not.toMatch(/:\/\/|@|127\.0\.0\.1/);
  });
});
