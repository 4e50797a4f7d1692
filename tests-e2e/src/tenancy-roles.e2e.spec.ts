import { randomBytes } from "node:crypto";
import { apiClient } from "./clients";
import { SharedSystem } from "./shared-system";
import { registerAdmin, registerUser, teamWithDomain } from "./world";

interface Role {
  id: string;
  scope: string;
  value: string;
  rank: number;
  is_system: boolean;
  permissions: string[];
}
interface Catalog {
  org_roles: Role[];
  team_roles: Role[];
  org_permissions: Array<{ key: string }>;
  team_permissions: Array<{ key: string }>;
}

/** Roles and custom roles through the gateway: the catalog, the rank rule, assignability, deletion. */
describe("roles through the gateway", () => {
  const system = SharedSystem.attach();
  const api = apiClient(system.gatewayUrl);
  const suffix = () => randomBytes(3).toString("hex");

  it("when any signed-in user asks for the roles, then the system roles and permission keys are listed", async () => {
    const user = await registerUser(api, "reader");
    const res = await api<Catalog>("GET", "/roles", { token: user.token });
    expect(res.status).toBe(200);
    expect(res.body.org_roles.filter((r) => r.is_system).map((r) => [r.value, r.rank])).toEqual([
      ["owner", 30],
      ["admin", 20],
      ["member", 10],
    ]);
    expect(res.body.team_roles.filter((r) => r.is_system).map((r) => [r.value, r.rank])).toEqual([
      ["lead", 20],
      ["member", 10],
    ]);
    expect(res.body.org_permissions.map((p) => p.key)).toContain("org.delete");
    expect(res.body.team_permissions.map((p) => p.key)).toContain("team.emails.manage");
    expect((await api("GET", "/roles")).status).toBe(401);
  });

  it("when a custom role is created, then the rank rule, the key format and uniqueness apply, and only system admins may create", async () => {
    const admin = await registerAdmin(api, system);
    const user = await registerUser(api, "plain");
    const value = `qa_${suffix()}`;
    const body = { scope: "team", value, label: "QA", rank: 15, permissions: ["team.view", "team.reports.export"] };
    expect((await api("POST", "/admin/roles", { token: user.token, body })).status).toBe(403);
    expect((await api("POST", "/admin/roles", { token: admin.token, body: { ...body, rank: 20 } })).status).toBe(400);
    expect((await api("POST", "/admin/roles", { token: admin.token, body: { ...body, permissions: ["Team.Bad"] } })).status).toBe(400);
    expect(
      (await api("POST", "/admin/roles", { token: admin.token, body: { ...body, scope: "org", permissions: ["org.everything"] } })).status,
    ).toBe(400);
    expect((await api("POST", "/admin/roles", { token: admin.token, body: { ...body, value: "lead" } })).status).toBe(409);
    const created = await api<Role>("POST", "/admin/roles", { token: admin.token, body });
    expect(created).toMatchObject({ status: 201, body: { scope: "team", value, rank: 15, is_system: false } });
    expect((await api("POST", "/admin/roles", { token: admin.token, body })).status).toBe(409);
    const catalog = await api<Catalog>("GET", "/roles", { token: user.token });
    expect(catalog.body.team_roles.map((r) => r.value)).toContain(value);
    expect(catalog.body.team_permissions.map((p) => p.key)).toContain("team.reports.export");
  });

  it("when a custom role is assigned, then it grants its permissions; it cannot be deleted while held; system roles never change", async () => {
    const admin = await registerAdmin(api, system);
    const world = await teamWithDomain(api);
    const value = `viewer_${suffix()}`;
    const role = await api<Role>("POST", "/admin/roles", {
      token: admin.token,
      body: { scope: "team", value, label: "Viewer", rank: 5, permissions: ["team.view", "team.members.view"] },
    });
    const orgValue = `auditor_${suffix()}`;
    const orgRole = await api<Role>("POST", "/admin/roles", {
      token: admin.token,
      body: { scope: "org", value: orgValue, label: "Auditor", rank: 15, permissions: ["org.view", "org.members.view"] },
    });
    const user = await registerUser(api, "viewer");
    const added = await api("POST", `/orgs/${world.orgId}/members/add`, {
      token: world.owner.token,
      body: { user_id: user.userId, role: orgValue },
    });
    expect(added).toMatchObject({ status: 201, body: { role: orgValue } });
    const team = `/orgs/${world.orgId}/teams/${world.teamId}`;
    expect((await api("POST", `${team}/members`, { token: world.owner.token, body: { user_id: user.userId, role: value } })).status).toBe(
      201,
    );
    expect((await api("GET", team, { token: user.token })).status).toBe(200);
    expect((await api("GET", `${team}/members`, { token: user.token })).status).toBe(200);
    expect((await api("GET", `/orgs/${world.orgId}/members`, { token: user.token })).status).toBe(200);
    expect((await api("PATCH", team, { token: user.token, body: { name: "Mine" } })).status).toBe(403);
    expect((await api("GET", `/orgs/${world.orgId}/settings`, { token: user.token })).status).toBe(403);
    const me = await api<{ permissions: string[] }>("GET", `/orgs/${world.orgId}/members/me`, { token: user.token });
    expect(me.body.permissions).toEqual(["org.view", "org.members.view"]);
    // in use: refused; patched: fine
    expect((await api("DELETE", `/admin/roles/${role.body.id}`, { token: admin.token })).status).toBe(409);
    const patched = await api<Role>("PATCH", `/admin/roles/${role.body.id}`, { token: admin.token, body: { label: "Reader" } });
    expect(patched).toMatchObject({ status: 200, body: { label: "Reader", value } });
    const system_ = await api<Catalog>("GET", "/roles", { token: user.token });
    const owner = system_.body.org_roles.find((r) => r.value === "owner");
    expect((await api("PATCH", `/admin/roles/${owner?.id}`, { token: admin.token, body: { label: "Boss" } })).status).toBe(409);
    expect((await api("DELETE", `/admin/roles/${owner?.id}`, { token: admin.token })).status).toBe(409);
    // once nobody holds it, it goes
    expect((await api("DELETE", `${team}/members/${user.userId}`, { token: world.owner.token })).status).toBe(204);
    expect((await api("DELETE", `/admin/roles/${role.body.id}`, { token: admin.token })).status).toBe(204);
    expect((await api("DELETE", `/admin/roles/${role.body.id}`, { token: admin.token })).status).toBe(404);
    expect(orgRole.status).toBe(201);
  });
});
