import { randomBytes, randomUUID } from "node:crypto";
import { waitFor } from "@burnbox/test-kit";
import { apiClient, openSocket } from "./clients";
import { SharedSystem } from "./shared-system";
import { pathShape, SPEC_OPERATIONS } from "./spec-operations";
import { createInbox, newClientIp, registerAdmin, teamWithDomain } from "./world";

interface Envelope {
  error: string;
  code: string;
}
type Operation = {
  operationId: string;
  parameters?: Array<{ name: string; in: string; required?: boolean }>;
  responses: Record<string, { description: string; content?: Record<string, { schema: unknown }> }>;
  "x-burnbox-extension"?: boolean;
};
type Document = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, unknown> } };
type Impact = { active_inboxes: number; total_inboxes: number };

/** Rules of the contract (contract-notes.md) checked through the public ports. */
describe("the contract's rules", () => {
  const system = SharedSystem.attach();
  const api = apiClient(system.gatewayUrl);

  describe("the served OpenAPI document", () => {
    const operations = async () => {
      const res = await api<Document>("GET", "/docs/openapi.json", { headers: { "x-forwarded-for": newClientIp() } });
      expect(res.status).toBe(200);
      return {
        doc: res.body,
        ops: Object.entries(res.body.paths).flatMap(([path, item]) =>
          Object.entries(item).map(([method, op]) => ({ key: `${method.toUpperCase()} ${pathShape(path)}`, path, op })),
        ),
      };
    };

    it("when the document is read, then it holds the spec's 162 operations on its 122 paths, and every other operation is a marked extension", async () => {
      const { ops } = await operations();
      const spec = new Set(SPEC_OPERATIONS.map((o) => pathShape(o)));
      expect(spec.size).toBe(162);
      const served = ops.filter((o) => spec.has(o.key));
      expect([...spec].filter((key) => !served.some((o) => o.key === key))).toEqual([]);
      expect(served).toHaveLength(162);
      expect(new Set(served.map((o) => o.path)).size).toBe(122);
      expect(served.filter((o) => o.op["x-burnbox-extension"] !== undefined).map((o) => o.key)).toEqual([]);
      const beyond = ops.filter((o) => !spec.has(o.key));
      expect(beyond.length).toBeGreaterThan(0);
      expect(beyond.filter((o) => o.op["x-burnbox-extension"] !== true).map((o) => o.key)).toEqual([]);
    });

    it.each(["/ws/inboxes/{id}", "/ws/notifications", "/ws/admin-stats"])(
      "when the WebSocket operation %s is read, then it takes a ticket, answers 101 with its frames and lists its refusals",
      async (path) => {
        const { doc } = await operations();
        const op = doc.paths[path]?.get;
        expect(op).toBeDefined();
        expect(op!.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: "ticket", in: "query", required: true })]));
        expect(Object.keys(op!.responses)).toEqual(expect.arrayContaining(["101", "401", "403"]));
        // the frames the server sends after the upgrade are a schema: `{type, data}`
        const frame = op!.responses["101"]!.content?.["application/json"]?.schema as { $ref?: string } | undefined;
        expect(frame?.$ref).toMatch(/^#\/components\/schemas\//);
        const schema = doc.components.schemas[frame!.$ref!.split("/").pop()!] as { properties?: Record<string, unknown> };
        expect(Object.keys(schema.properties ?? {})).toEqual(expect.arrayContaining(["type", "data"]));
      },
    );

    it("when the WebSocket operations are called through the gateway, then the upgrades still reach their service, and a plain GET is told to upgrade", async () => {
      const admin = await registerAdmin(api, system);
      for (const path of [`/ws/inboxes/${randomUUID()}`, "/ws/notifications", "/ws/admin-stats"]) {
        await expect(openSocket(`${system.wsUrl}/api/v1${path}?ticket=${randomUUID()}`)).rejects.toThrow("upgrade refused: 401");
        const plain = await api<Envelope>("GET", `${path}?ticket=${randomUUID()}`, { token: admin.token });
        expect(plain.status).toBe(426);
        expect(plain.body.error).toMatch(/upgrade/);
      }
      const ticket = (await api<{ ticket: string }>("POST", "/ws/ticket", { token: admin.token })).body.ticket;
      const { ws } = await openSocket(`${system.wsUrl}/api/v1/ws/notifications?ticket=${ticket}`);
      ws.close();
    });
  });

  describe("domain names", () => {
    it.each(["10.1.2.3", "[::1]", "localhost", "printer.local", "db.internal", "app.localhost", "MAIL.Corp.Internal"])(
      "when %s is added as a domain, then 400 and nothing is created",
      async (name) => {
        const world = await teamWithDomain(api);
        const res = await api<Envelope>("POST", `/orgs/${world.orgId}/domains`, { token: world.owner.token, body: { domain_name: name } });
        expect(res.status).toBe(400);
        expect(res.body.code).toBe("validation_error");
        const list = await api<{ total: number }>("GET", `/orgs/${world.orgId}/domains`, { token: world.owner.token });
        expect(list.body.total).toBe(1);
      },
    );

    it("when a trusted test domain's subdomain is added, then it is created", async () => {
      const world = await teamWithDomain(api);
      const res = await api("POST", `/orgs/${world.orgId}/domains`, {
        token: world.owner.token,
        body: { domain_name: `more-${randomBytes(3).toString("hex")}.e2e.burnbox.test` },
      });
      expect(res.status).toBe(201);
    });
  });

  describe("a domain that holds inboxes", () => {
    const domainOf = async (world: Awaited<ReturnType<typeof teamWithDomain>>) =>
      (await api<{ data: Array<{ id: string }> }>("GET", `/orgs/${world.orgId}/domains`, { token: world.owner.token })).body.data[0]!.id;

    it("when an inbox is created on an assigned domain, then the domain's impact counts it at once, and no longer once it is deleted", async () => {
      const world = await teamWithDomain(api);
      const domainId = await domainOf(world);
      const impact = async () =>
        (await api<Impact>("GET", `/orgs/${world.orgId}/domains/${domainId}/impact`, { token: world.owner.token })).body;
      const inbox = await createInbox(api, world.owner.token, world.assignmentId, `imp-${randomBytes(3).toString("hex")}`);
      await createInbox(api, world.owner.token, world.assignmentId, `imp-${randomBytes(3).toString("hex")}`);
      expect(await impact()).toMatchObject({ active_inboxes: 2, total_inboxes: 2 });
      expect((await api("DELETE", `/inboxes/${inbox.id}`, { token: world.owner.token })).status).toBe(204);
      expect(await impact()).toMatchObject({ active_inboxes: 1, total_inboxes: 1 });
    });

    it("when one of two inboxes is deleted, then the domain's and the team's active_inboxes fall to 1", async () => {
      const world = await teamWithDomain(api);
      const domainId = await domainOf(world);
      const inbox = await createInbox(api, world.owner.token, world.assignmentId, `cnt-${randomBytes(3).toString("hex")}`);
      await createInbox(api, world.owner.token, world.assignmentId, `cnt-${randomBytes(3).toString("hex")}`);
      const counts = async () => ({
        domain: (await api<{ active_inboxes: number }>("GET", `/orgs/${world.orgId}/domains/${domainId}`, { token: world.owner.token }))
          .body.active_inboxes,
        team: (await api<{ active_inboxes: number }>("GET", `/orgs/${world.orgId}/teams/${world.teamId}`, { token: world.owner.token }))
          .body.active_inboxes,
      });
      await waitFor(async () => ((await counts()).domain === 2 ? true : null), { what: "both inboxes counted" });
      expect((await api("DELETE", `/inboxes/${inbox.id}`, { token: world.owner.token })).status).toBe(204);
      const after = await waitFor(
        async () => {
          const c = await counts();
          return c.domain === 1 && c.team === 1 ? c : null;
        },
        { what: "the deleted inbox uncounted", timeoutMs: 10_000 },
      );
      expect(after).toEqual({ domain: 1, team: 1 });
    });

    it("when the domain or its assignment is deleted while an inbox is active, then 409 with active_inboxes, unless forced", async () => {
      const world = await teamWithDomain(api);
      const domainId = await domainOf(world);
      // three inboxes, two of them deleted again: one is active
      const inboxes = [];
      for (const n of [1, 2, 3])
        inboxes.push(await createInbox(api, world.owner.token, world.assignmentId, `del${n}-${randomBytes(3).toString("hex")}`));
      for (const gone of inboxes.slice(1))
        expect((await api("DELETE", `/inboxes/${gone.id}`, { token: world.owner.token })).status).toBe(204);
      const unassign = `/orgs/${world.orgId}/teams/${world.teamId}/domains/${domainId}`;
      const refusedAssignment = await api<Envelope & { active_inboxes: number }>("DELETE", unassign, { token: world.owner.token });
      expect(refusedAssignment.status).toBe(409);
      expect(refusedAssignment.body).toMatchObject({ code: "conflict", active_inboxes: 1 });
      const refusedDomain = await api<Envelope & { active_inboxes: number }>("DELETE", `/orgs/${world.orgId}/domains/${domainId}`, {
        token: world.owner.token,
      });
      expect(refusedDomain.status).toBe(409);
      expect(refusedDomain.body).toMatchObject({ code: "conflict", active_inboxes: 1 });
      // refused: both are still there
      expect((await api("GET", `/orgs/${world.orgId}/domains/${domainId}`, { token: world.owner.token })).status).toBe(200);
      expect(
        (await api<{ total: number }>("GET", `/orgs/${world.orgId}/teams/${world.teamId}/domains`, { token: world.owner.token })).body
          .total,
      ).toBe(1);

      const bulk = await api("POST", `/orgs/${world.orgId}/domains/bulk-delete`, {
        token: world.owner.token,
        body: { domain_ids: [domainId] },
      });
      expect(bulk.body).toEqual({ deleted: 0, skipped: [{ domain_id: domainId, reason: "active_inboxes" }] });
      expect((await api("DELETE", `${unassign}?force=true`, { token: world.owner.token })).status).toBe(204);
      const forced = await api("DELETE", `/orgs/${world.orgId}/domains/${domainId}?force=true`, { token: world.owner.token });
      expect(forced.status).toBe(200);
      expect(forced.body).toEqual({ message: expect.any(String) });
    });

    it("when a system admin moves a domain right after its inboxes changed, then deactivated_inboxes counts the active ones", async () => {
      const world = await teamWithDomain(api);
      const domainId = await domainOf(world);
      const root = await registerAdmin(api, system);
      const target = await api<{ id: string }>("POST", "/orgs", {
        token: root.token,
        body: { name: `Target ${randomBytes(3).toString("hex")}` },
      });
      const inboxes = [];
      for (const n of [1, 2, 3])
        inboxes.push(await createInbox(api, world.owner.token, world.assignmentId, `mv${n}-${randomBytes(3).toString("hex")}`));
      for (const gone of inboxes.slice(1))
        expect((await api("DELETE", `/inboxes/${gone.id}`, { token: world.owner.token })).status).toBe(204);
      const moved = await api("POST", `/orgs/${world.orgId}/domains/${domainId}/transfer`, {
        token: root.token,
        body: { target_org_id: target.body.id },
      });
      expect(moved.status).toBe(200);
      expect(moved.body).toMatchObject({ removed_assignments: 1, deactivated_inboxes: 1 });
    });

    it("when the domain's only inbox was deleted, then the domain is deleted without force", async () => {
      const world = await teamWithDomain(api);
      const domainId = await domainOf(world);
      const inbox = await createInbox(api, world.owner.token, world.assignmentId, `gone-${randomBytes(3).toString("hex")}`);
      expect((await api("DELETE", `/inboxes/${inbox.id}`, { token: world.owner.token })).status).toBe(204);
      expect(
        (await api("DELETE", `/orgs/${world.orgId}/teams/${world.teamId}/domains/${domainId}`, { token: world.owner.token })).status,
      ).toBe(204);
      expect((await api("DELETE", `/orgs/${world.orgId}/domains/${domainId}`, { token: world.owner.token })).status).toBe(200);
    });
  });

  describe("platform settings", () => {
    it("when the platform is read, then demo_enabled is the boolean in effect, and a PUT of another field leaves it alone", async () => {
      const admin = await registerAdmin(api, system);
      const platform = () => api<Record<string, unknown>>("GET", "/admin/platform", { token: admin.token });
      const demo = async () =>
        (await api<{ enabled: boolean }>("GET", "/try/status", { headers: { "x-forwarded-for": newClientIp() } })).body.enabled;
      const before = (await platform()).body;
      expect(typeof before.demo_enabled).toBe("boolean");
      expect(before.demo_enabled).toBe(await demo());

      const put = await api<Record<string, unknown>>("PUT", "/admin/platform", {
        token: admin.token,
        body: { max_sessions_per_user: Number(before.max_sessions_per_user) + 1 },
      });
      try {
        expect(put.status).toBe(200);
        expect(put.body).toEqual({ ...before, max_sessions_per_user: Number(before.max_sessions_per_user) + 1 });
        expect((await platform()).body).toEqual(put.body);
      } finally {
        await api("PUT", "/admin/platform", { token: admin.token, body: { max_sessions_per_user: before.max_sessions_per_user } });
      }
    });
  });

  describe("SSO domain mappings", () => {
    it("when a second mapping names a provider's mapped domain, then 409; the preview names the mapped team", async () => {
      const admin = await registerAdmin(api, system);
      const name = `rules-${randomBytes(3).toString("hex")}`;
      const provider = await api<{ id: string }>("POST", "/admin/sso/providers", {
        token: admin.token,
        body: { name, provider_type: "google", label: "Rules", client_id: "rules-client", client_secret: "rules-secret" },
      });
      expect(provider.status).toBe(201);
      const first = await teamWithDomain(api);
      const second = await teamWithDomain(api);
      const domain = `${randomBytes(3).toString("hex")}.rules.test`;
      const mappings = `/admin/sso/providers/${provider.body.id}/domain-mappings`;
      const created = await api("POST", mappings, {
        token: admin.token,
        body: { domain, org_id: first.orgId, team_id: first.teamId, org_role: "member", team_role: "member" },
      });
      expect(created.status).toBe(201);
      const twin = await api<Envelope>("POST", mappings, {
        token: admin.token,
        body: { domain, org_id: second.orgId, team_id: second.teamId, org_role: "admin", team_role: "lead" },
      });
      expect(twin.status).toBe(409);
      expect(twin.body.code).toBe("conflict");

      const preview = await api("POST", "/admin/sso/domain-mappings/preview", {
        token: admin.token,
        body: { email: `ada@${domain}`, provider: name },
      });
      expect(preview.status).toBe(200);
      expect(preview.body).toMatchObject({ team_assignments: [{ team_id: first.teamId, team_name: "QA", team_role: "member" }] });
    });
  });
});
