import { randomUUID } from "node:crypto";
import { apiClient } from "./clients";
import { SharedSystem } from "./shared-system";
import { STRONG_PASSWORD, registerAdmin, registerUser, teamWithDomain } from "./world";
import { TRUSTED_DOMAIN } from "./system";

interface Envelope {
  error: string;
  code: string;
}
interface Member {
  user_id: string;
  role: string;
  email: string;
  display_name: string;
}
interface Page<T> {
  data: T[];
  total: number;
}

/** Tenancy through the gateway: orgs, settings, members, teams, team members, domains and assignments. */
describe("tenancy through the gateway", () => {
  const system = SharedSystem.attach();
  const api = apiClient(system.gatewayUrl);

  /** A user who joins the org of `world` with `role`, added directly by its owner. */
  async function joinOrg(world: { orgId: string; owner: { token: string } }, role: string, label = role) {
    const user = await registerUser(api, label);
    const added = await api<Member>("POST", `/orgs/${world.orgId}/members/add`, {
      token: world.owner.token,
      body: { user_id: user.userId, role },
    });
    if (added.status !== 201) throw new Error(`add member: ${added.status} ${JSON.stringify(added.body)}`);
    return user;
  }

  describe("orgs and their settings", () => {
    it("when a user lists orgs, then they see theirs with their role; a rename keeps the slug", async () => {
      const world = await teamWithDomain(api);
      const listed = await api<Page<{ id: string; role: string; slug: string }>>("GET", "/orgs", { token: world.owner.token });
      expect(listed.status).toBe(200);
      const mine = listed.body.data.find((o) => o.id === world.orgId);
      expect(mine?.role).toBe("owner");
      const renamed = await api<{ name: string; slug: string }>("PATCH", `/orgs/${world.orgId}`, {
        token: world.owner.token,
        body: { name: "Renamed Org" },
      });
      expect(renamed.status).toBe(200);
      expect(renamed.body).toMatchObject({ name: "Renamed Org", slug: mine?.slug });
    });

    it("when an outsider uses another org's ids, then every answer is the unknown id's", async () => {
      const world = await teamWithDomain(api);
      const outsider = await registerUser(api, "outsider");
      const unknown = randomUUID();
      const paths = (orgId: string) =>
        [
          ["GET", `/orgs/${orgId}`],
          ["PATCH", `/orgs/${orgId}`, { name: "x" }],
          ["GET", `/orgs/${orgId}/settings`],
          ["GET", `/orgs/${orgId}/members`],
          ["GET", `/orgs/${orgId}/domains`],
          ["GET", `/orgs/${orgId}/teams/${world.teamId}`],
          ["POST", `/orgs/${orgId}/teams/${world.teamId}/archive`],
          ["DELETE", `/orgs/${orgId}`, { password: STRONG_PASSWORD }],
        ] as const;
      for (const [i, [method, path, body]] of paths(world.orgId).entries()) {
        const theirs = await api<Envelope>(method, path, { token: outsider.token, ...(body ? { body } : {}) });
        const [m2, p2, b2] = paths(unknown)[i] ?? [];
        const unknownAnswer = await api<Envelope>(m2 ?? "GET", (p2 ?? "").replace(world.teamId, randomUUID()), {
          token: outsider.token,
          ...(b2 ? { body: b2 } : {}),
        });
        expect({ path: p2, status: theirs.status, body: theirs.body }).toEqual({
          path: p2,
          status: unknownAnswer.status,
          body: unknownAnswer.body,
        });
        expect(theirs.status).toBe(404);
      }
      // nothing changed
      expect((await api("GET", `/orgs/${world.orgId}/teams/${world.teamId}`, { token: world.owner.token })).body).toMatchObject({
        is_archived: false,
      });
    });

    it("when an API key calls an org route, then it is refused; a team route in its scopes answers", async () => {
      const world = await teamWithDomain(api);
      const key = await api<{ raw_key: string }>("POST", `/orgs/${world.orgId}/teams/${world.teamId}/api-keys`, {
        token: world.owner.token,
        body: { name: "ci", scopes: ["team.view", "team.members.view"] },
      });
      expect(key.status).toBe(201);
      expect((await api("GET", `/orgs/${world.orgId}`, { token: key.body.raw_key })).status).toBe(403);
      expect((await api("GET", `/orgs/${world.orgId}/settings`, { token: key.body.raw_key })).status).toBe(403);
      expect((await api("GET", `/orgs/${world.orgId}/teams/${world.teamId}`, { token: key.body.raw_key })).status).toBe(200);
      expect((await api("GET", `/orgs/${world.orgId}/teams/${world.teamId}/members`, { token: key.body.raw_key })).status).toBe(200);
    });

    it("when settings are patched or put, then both merge; a TTL beyond the cascade or a limit below 1 is a 400 that changes nothing", async () => {
      const world = await teamWithDomain(api);
      const path = `/orgs/${world.orgId}/settings`;
      const token = world.owner.token;
      expect((await api("PATCH", path, { token, body: { max_teams: 7 } })).body).toMatchObject({ max_teams: 7, max_inbox_ttl: "24h" });
      expect((await api("PUT", path, { token, body: { max_inbox_ttl: "2h" } })).body).toMatchObject({ max_teams: 7, max_inbox_ttl: "2h" });
      for (const body of [{ max_inbox_ttl: "48h" }, { default_inbox_ttl: "3h" }, { max_domains: 0 }, { default_inbox_ttl: "soon" }, {}]) {
        expect({ body, status: (await api("PATCH", path, { token, body })).status }).toEqual({ body, status: 400 });
      }
      expect((await api("GET", path, { token })).body).toMatchObject({
        max_teams: 7,
        max_inbox_ttl: "2h",
        default_inbox_ttl: "10m",
        max_domains: 10,
      });
      // the cascade: a team may not raise the org's maximum
      const teamPath = `/orgs/${world.orgId}/teams/${world.teamId}`;
      expect((await api("PATCH", teamPath, { token, body: { settings: { max_inbox_ttl: "3h" } } })).status).toBe(400);
      expect((await api("PATCH", teamPath, { token, body: { settings: { max_inbox_ttl: "1h" } } })).status).toBe(200);
      const member = await joinOrg(world, "member");
      expect((await api("PATCH", path, { token: member.token, body: { max_teams: 9 } })).status).toBe(403);
      expect((await api("GET", path, { token: member.token })).status).toBe(200);
    });

    it("when an org is deleted, then the password is required and checked, and nothing of it is readable afterwards", async () => {
      const world = await teamWithDomain(api);
      const token = world.owner.token;
      const admin = await joinOrg(world, "admin");
      expect((await api("DELETE", `/orgs/${world.orgId}`, { token, body: {} })).status).toBe(400);
      expect((await api("DELETE", `/orgs/${world.orgId}`, { token, body: { password: "wrong-Password-1" } })).status).toBe(403);
      expect((await api("DELETE", `/orgs/${world.orgId}`, { token: admin.token, body: { password: STRONG_PASSWORD } })).status).toBe(403);
      expect((await api("GET", `/orgs/${world.orgId}`, { token })).status).toBe(200);
      const deleted = await api("DELETE", `/orgs/${world.orgId}`, { token, body: { password: STRONG_PASSWORD } });
      expect(deleted).toMatchObject({ status: 200, body: { message: "organization deleted" } });
      expect((await api("GET", `/orgs/${world.orgId}`, { token })).status).toBe(404);
      expect((await api("GET", `/orgs/${world.orgId}/teams/${world.teamId}`, { token })).status).toBe(404);
      const listed = await api<Page<{ id: string }>>("GET", "/orgs", { token });
      expect(listed.body.data.map((o) => o.id)).not.toContain(world.orgId);
    });
  });

  describe("members and the rank rules", () => {
    it("when a user is added, listed and searched, then the member shows their email and name; a second add is a 409, an unknown user a 404", async () => {
      const world = await teamWithDomain(api);
      const user = await joinOrg(world, "member", "Searchable");
      const again = await api<Envelope>("POST", `/orgs/${world.orgId}/members/add`, {
        token: world.owner.token,
        body: { user_id: user.userId, role: "member" },
      });
      expect(again.status).toBe(409);
      const unknown = await api("POST", `/orgs/${world.orgId}/members/add`, {
        token: world.owner.token,
        body: { user_id: randomUUID(), role: "member" },
      });
      expect(unknown.status).toBe(404);
      const listed = await api<Page<Member>>("GET", `/orgs/${world.orgId}/members?q=searchable`, { token: world.owner.token });
      expect(listed.body.data).toEqual([
        expect.objectContaining({ user_id: user.userId, role: "member", email: user.email.toLowerCase(), display_name: "Searchable" }),
      ]);
      const byRole = await api<Page<Member>>("GET", `/orgs/${world.orgId}/members?role=owner`, { token: user.token });
      expect(byRole.body.data.map((m) => m.user_id)).toEqual([world.owner.userId]);
      const me = await api<Member & { permissions: string[] }>("GET", `/orgs/${world.orgId}/members/me`, { token: user.token });
      expect(me.body).toMatchObject({ user_id: user.userId, role: "member" });
      expect(me.body.permissions).toContain("org.view");
      expect(me.body.permissions).not.toContain("org.members.role");
    });

    it("when members are searched, then only the org's members match, without those of an excluded team", async () => {
      const world = await teamWithDomain(api);
      const inTeam = await joinOrg(world, "member", "Findme");
      const notInTeam = await joinOrg(world, "member", "Findme");
      await registerUser(api, "Findme"); // a platform user outside the org
      const team = `/orgs/${world.orgId}/teams/${world.teamId}`;
      expect(
        (await api("POST", `${team}/members`, { token: world.owner.token, body: { user_id: inTeam.userId, role: "member" } })).status,
      ).toBe(201);
      const all = await api<Page<{ user_id: string }>>("GET", `/orgs/${world.orgId}/members/search?q=findme`, { token: world.owner.token });
      expect(all.body.data.map((m) => m.user_id).sort()).toEqual([inTeam.userId, notInTeam.userId].sort());
      const outside = await api<Page<{ user_id: string; email: string }>>(
        "GET",
        `/orgs/${world.orgId}/members/search?q=findme&exclude_team=${world.teamId}`,
        { token: world.owner.token },
      );
      expect(outside.body.data).toEqual([{ user_id: notInTeam.userId, email: notInTeam.email.toLowerCase(), display_name: "Findme" }]);
    });

    it("when an admin tries to make an owner or act on one, then it is a 403; an owner promotes, and the last owner is protected", async () => {
      const world = await teamWithDomain(api);
      const admin = await joinOrg(world, "admin");
      const member = await joinOrg(world, "member");
      const rolePath = (uid: string) => `/orgs/${world.orgId}/members/${uid}`;
      expect((await api("PATCH", rolePath(member.userId), { token: admin.token, body: { role: "owner" } })).status).toBe(403);
      expect((await api("PATCH", rolePath(world.owner.userId), { token: admin.token, body: { role: "member" } })).status).toBe(403);
      expect((await api("POST", `${rolePath(world.owner.userId)}/deactivate`, { token: admin.token })).status).toBe(403);
      expect((await api("PATCH", rolePath(member.userId), { token: member.token, body: { role: "admin" } })).status).toBe(403);
      expect((await api("PATCH", rolePath(member.userId), { token: admin.token, body: { role: "superuser" } })).status).toBe(400);
      const lastOwner = await api<Envelope>("PATCH", rolePath(world.owner.userId), { token: world.owner.token, body: { role: "member" } });
      expect(lastOwner).toMatchObject({ status: 409, body: { code: "conflict" } });
      expect((await api("POST", `${rolePath(world.owner.userId)}/deactivate`, { token: world.owner.token })).status).toBe(409);
      const promoted = await api<Member>("PATCH", rolePath(member.userId), { token: world.owner.token, body: { role: "admin" } });
      expect(promoted).toMatchObject({ status: 200, body: { role: "admin", email: member.email } });
      // a second owner makes the first one free to step down
      expect((await api("PATCH", rolePath(admin.userId), { token: world.owner.token, body: { role: "owner" } })).status).toBe(200);
      expect((await api("PATCH", rolePath(world.owner.userId), { token: world.owner.token, body: { role: "member" } })).body).toMatchObject(
        {
          role: "member",
        },
      );
    });

    it("when a member is deactivated, then they leave the org and its teams, and lose access", async () => {
      const world = await teamWithDomain(api);
      const member = await joinOrg(world, "member");
      const teamMembers = `/orgs/${world.orgId}/teams/${world.teamId}/members`;
      expect((await api("POST", teamMembers, { token: world.owner.token, body: { user_id: member.userId, role: "member" } })).status).toBe(
        201,
      );
      expect((await api("GET", `/orgs/${world.orgId}/teams/${world.teamId}`, { token: member.token })).status).toBe(200);
      const removed = await api("POST", `/orgs/${world.orgId}/members/${member.userId}/deactivate`, { token: world.owner.token });
      expect(removed).toMatchObject({ status: 200, body: { message: "member removed" } });
      expect((await api("GET", `/orgs/${world.orgId}`, { token: member.token })).status).toBe(404);
      const left = await api<Page<Member>>("GET", teamMembers, { token: world.owner.token });
      expect(left.body.data.map((m) => m.user_id)).toEqual([world.owner.userId]);
      expect((await api("POST", `/orgs/${world.orgId}/members/${member.userId}/deactivate`, { token: world.owner.token })).status).toBe(
        404,
      );
    });
  });

  describe("teams and their members", () => {
    it("when a team is fetched, renamed and listed by archived state, then each answer reflects it; a taken name is a 409", async () => {
      const world = await teamWithDomain(api);
      const token = world.owner.token;
      const base = `/orgs/${world.orgId}/teams`;
      expect((await api("GET", `${base}/${world.teamId}`, { token })).body).toMatchObject({
        id: world.teamId,
        name: "QA",
        member_count: 1,
      });
      expect((await api("POST", base, { token, body: { name: "Second" } })).status).toBe(201);
      expect((await api("PATCH", `${base}/${world.teamId}`, { token, body: { name: "second" } })).status).toBe(409);
      expect((await api("POST", base, { token, body: { name: "qa" } })).status).toBe(409);
      expect(
        (await api("PATCH", `${base}/${world.teamId}`, { token, body: { name: "Checkout", description: "pays" } })).body,
      ).toMatchObject({
        name: "Checkout",
        description: "pays",
      });
      await api("POST", `${base}/${world.teamId}/archive`, { token });
      const active = await api<Page<{ id: string }>>("GET", `${base}?archived=false`, { token });
      const archived = await api<Page<{ id: string }>>("GET", `${base}?archived=true`, { token });
      const all = await api<Page<{ id: string }>>("GET", `${base}?archived=all&q=check`, { token });
      expect(active.body.data.map((t) => t.id)).not.toContain(world.teamId);
      expect(archived.body.data.map((t) => t.id)).toEqual([world.teamId]);
      expect(all.body.data.map((t) => t.id)).toEqual([world.teamId]);
    });

    it("when a team is archived, then it is read-only (no new inbox, webhook, API key, member or assignment) until restored; its keys still read", async () => {
      const world = await teamWithDomain(api);
      const token = world.owner.token;
      const team = `/orgs/${world.orgId}/teams/${world.teamId}`;
      const member = await joinOrg(world, "member");
      const key = await api<{ raw_key: string }>("POST", `${team}/api-keys`, {
        token,
        body: { name: "reader", scopes: ["team.view", "team.inboxes.view"] },
      });
      const archived = await api<{ is_archived: boolean; archived_at: string | null }>("POST", `${team}/archive`, { token });
      expect(archived.status).toBe(200);
      expect(archived.body.is_archived).toBe(true);
      expect(archived.body.archived_at).not.toBeNull();
      const refusals = {
        inbox: await api<Envelope>("POST", "/inboxes", { token, body: { domain_assignment_id: world.assignmentId, alias: "late" } }),
        webhook: await api<Envelope>("POST", `${team}/webhooks`, {
          token,
          body: { url: "https://hooks.example.com/in", events: ["inbox.created"] },
        }),
        apiKey: await api<Envelope>("POST", `${team}/api-keys`, { token, body: { name: "late", scopes: ["team.inboxes.view"] } }),
        assignment: await api<Envelope>("PATCH", `${team}/domains/${randomUUID()}`, { token, body: { access_level: "read_only" } }),
      };
      for (const [what, res] of Object.entries(refusals)) {
        expect({ what, status: res.status, body: res.body }).toEqual({
          what,
          status: 409,
          body: { error: "team is archived", code: "conflict" },
        });
      }
      const addMember = await api<Envelope>("POST", `${team}/members`, { token, body: { user_id: member.userId, role: "member" } });
      expect(addMember).toMatchObject({ status: 409, body: { error: "team is archived" } });
      expect((await api("GET", `${team}`, { token })).status).toBe(200);
      expect((await api("GET", team, { token: key.body.raw_key })).status).toBe(200);
      expect((await api("GET", "/inboxes", { token: key.body.raw_key })).status).toBe(200);
      const restored = await api<{ is_archived: boolean }>("POST", `${team}/restore`, { token });
      expect(restored.body.is_archived).toBe(false);
      expect((await api("POST", `${team}/members`, { token, body: { user_id: member.userId, role: "member" } })).status).toBe(201);
      // only org owners and admins archive
      expect((await api("POST", `${team}/archive`, { token: member.token })).status).toBe(403);
    });

    it("when team members are added, changed and removed, then the rank rules hold and the last lead is protected", async () => {
      const world = await teamWithDomain(api);
      const token = world.owner.token;
      const members = `/orgs/${world.orgId}/teams/${world.teamId}/members`;
      const alice = await joinOrg(world, "member", "alice");
      const bob = await joinOrg(world, "member", "bob");
      const stranger = await registerUser(api, "stranger");
      expect((await api("POST", members, { token, body: { email: stranger.email, role: "member" } })).status).toBe(404);
      const added = await api<Member>("POST", members, { token, body: { email: alice.email, role: "member" } });
      expect(added).toMatchObject({ status: 201, body: { user_id: alice.userId, role: "member", email: alice.email } });
      expect((await api("POST", members, { token, body: { user_id: alice.userId, role: "member" } })).status).toBe(409);
      expect((await api("POST", members, { token, body: { user_id: bob.userId, role: "member" } })).status).toBe(201);
      // a team member may not remove or promote another
      expect((await api("DELETE", `${members}/${bob.userId}`, { token: alice.token })).status).toBe(403);
      expect((await api("PATCH", `${members}/${alice.userId}`, { token: alice.token, body: { role: "lead" } })).status).toBe(403);
      const lead = await api<Member>("PATCH", `${members}/${alice.userId}`, { token, body: { role: "lead" } });
      expect(lead.body.role).toBe("lead");
      const listed = await api<Page<Member>>("GET", `${members}?role=lead`, { token: bob.token });
      expect(listed.body.data.map((m) => m.user_id).sort()).toEqual([alice.userId, world.owner.userId].sort());
      // the owner leaves the team; alice is then the last lead
      expect((await api("POST", `/orgs/${world.orgId}/teams/${world.teamId}/leave`, { token })).status).toBe(204);
      expect((await api("POST", `/orgs/${world.orgId}/teams/${world.teamId}/leave`, { token: alice.token })).status).toBe(409);
      expect((await api("PATCH", `${members}/${alice.userId}`, { token: alice.token, body: { role: "member" } })).status).toBe(409);
      expect((await api("DELETE", `${members}/${alice.userId}`, { token })).status).toBe(409);
      expect((await api("DELETE", `${members}/${bob.userId}`, { token: alice.token })).status).toBe(204);
      expect((await api("POST", `/orgs/${world.orgId}/teams/${world.teamId}/leave`, { token: bob.token })).status).toBe(404);
    });

    it("when members are added and removed in bulk, then each skip has its reason, and removing the last lead refuses the whole request", async () => {
      const world = await teamWithDomain(api);
      const token = world.owner.token;
      const members = `/orgs/${world.orgId}/teams/${world.teamId}/members`;
      const a = await joinOrg(world, "member", "bulk-a");
      const b = await joinOrg(world, "member", "bulk-b");
      const stranger = await registerUser(api, "bulk-stranger");
      const added = await api<{ added: Member[]; skipped: Array<{ identifier: string; reason: string }> }>("POST", `${members}/bulk-add`, {
        token,
        body: {
          members: [
            { user_id: a.userId, role: "member" },
            { email: b.email, role: "lead" },
            { user_id: a.userId, role: "member" },
            { user_id: stranger.userId, role: "member" },
            { user_id: world.owner.userId, role: "member" },
          ],
        },
      });
      expect(added.status).toBe(200);
      expect(added.body.added.map((m) => [m.user_id, m.role])).toEqual([
        [a.userId, "member"],
        [b.userId, "lead"],
      ]);
      expect(added.body.skipped).toEqual([
        { identifier: a.userId, reason: "duplicate_in_request" },
        { identifier: stranger.userId, reason: "not_org_member" },
        { identifier: world.owner.userId, reason: "already_member" },
      ]);
      const allLeads = await api<Envelope>("POST", `${members}/bulk-remove`, { token, body: { user_ids: [world.owner.userId, b.userId] } });
      expect(allLeads.status).toBe(409);
      expect((await api<Page<Member>>("GET", members, { token })).body.total).toBe(3);
      const removed = await api("POST", `${members}/bulk-remove`, { token, body: { user_ids: [a.userId, b.userId, stranger.userId] } });
      expect(removed).toMatchObject({ status: 200, body: { removed: 2, skipped: [{ user_id: stranger.userId, reason: "not_member" }] } });
    });

    it("when a team is deleted, then it and its assignments are gone; only org owners and admins may delete", async () => {
      const world = await teamWithDomain(api);
      const member = await joinOrg(world, "member");
      const team = `/orgs/${world.orgId}/teams/${world.teamId}`;
      expect((await api("DELETE", team, { token: member.token })).status).toBe(403);
      expect((await api("DELETE", team, { token: world.owner.token })).status).toBe(204);
      expect((await api("GET", team, { token: world.owner.token })).status).toBe(404);
      expect((await api("DELETE", team, { token: world.owner.token })).status).toBe(404);
      const domains = await api<Page<{ team_count: number }>>("GET", `/orgs/${world.orgId}/domains`, { token: world.owner.token });
      expect(domains.body.data[0]?.team_count).toBe(0);
    });

    it("when a system admin transfers a team, then members outside the target org and the assignments are dropped", async () => {
      const world = await teamWithDomain(api);
      const target = await teamWithDomain(api);
      const admin = await registerAdmin(api, system);
      // the same name in the target org is a conflict: the team is renamed first
      expect(
        (
          await api("POST", `/orgs/${world.orgId}/teams/${world.teamId}/transfer`, {
            token: admin.token,
            body: { target_org_id: target.orgId },
          })
        ).status,
      ).toBe(409);
      await api("PATCH", `/orgs/${world.orgId}/teams/${world.teamId}`, { token: world.owner.token, body: { name: "Moving" } });
      const path = `/orgs/${world.orgId}/teams/${world.teamId}/transfer`;
      expect((await api("POST", path, { token: world.owner.token, body: { target_org_id: target.orgId } })).status).toBe(403);
      const moved = await api<{
        team: { org_id: string; domain_count: number };
        removed_members: Array<{ user_id: string; email: string }>;
      }>("POST", path, { token: admin.token, body: { target_org_id: target.orgId } });
      expect(moved.status).toBe(200);
      expect(moved.body.team).toMatchObject({ org_id: target.orgId, domain_count: 0 });
      expect(moved.body.removed_members).toEqual([{ user_id: world.owner.userId, email: world.owner.email }]);
      expect((await api("GET", `/orgs/${target.orgId}/teams/${world.teamId}`, { token: target.owner.token })).status).toBe(200);
      expect((await api("GET", `/orgs/${world.orgId}/teams/${world.teamId}`, { token: world.owner.token })).status).toBe(404);
    });
  });

  describe("domains, assignments and quotas", () => {
    it("when domains are listed, fetched, patched and deleted, then each answer reflects it; another org's domain is unknown", async () => {
      const world = await teamWithDomain(api);
      const other = await teamWithDomain(api);
      const token = world.owner.token;
      const listed = await api<Page<{ id: string; domain_name: string; status: string }>>(
        "GET",
        `/orgs/${world.orgId}/domains?status=verified`,
        {
          token,
        },
      );
      const domain = listed.body.data[0];
      expect(listed.body.total).toBe(1);
      expect(domain?.domain_name).toBe(world.domainName);
      const path = `/orgs/${world.orgId}/domains/${domain?.id}`;
      expect((await api("GET", path, { token })).body).toMatchObject({ id: domain?.id, team_count: 1 });
      expect((await api("GET", `/orgs/${world.orgId}/domains?q=nomatch`, { token })).body).toMatchObject({ data: [], total: 0 });
      expect((await api("PATCH", path, { token, body: { description: "primary" } })).body).toMatchObject({ description: "primary" });
      expect((await api("PATCH", path, { token, body: { settings: { max_inbox_ttl: "48h" } } })).status).toBe(400);
      expect((await api("GET", `/orgs/${other.orgId}/domains/${domain?.id}`, { token: other.owner.token })).status).toBe(404);
      expect((await api("DELETE", `/orgs/${other.orgId}/domains/${domain?.id}`, { token: other.owner.token })).status).toBe(404);
      expect((await api("DELETE", path, { token })).body).toEqual({ message: "domain deleted" });
      expect((await api("GET", path, { token })).status).toBe(404);
    });

    it("when a domain assignment is listed, patched and unassigned, then each answer reflects it; a longer TTL than the tiers above is a 400", async () => {
      const world = await teamWithDomain(api);
      const token = world.owner.token;
      const base = `/orgs/${world.orgId}/teams/${world.teamId}/domains`;
      const listed = await api<Page<{ id: string; domain_id: string; access_level: string }>>("GET", base, { token });
      expect(listed.body.data).toEqual([expect.objectContaining({ id: world.assignmentId, access_level: "full" })]);
      const domainId = listed.body.data[0]?.domain_id ?? "";
      await api("PATCH", `/orgs/${world.orgId}/teams/${world.teamId}`, { token, body: { settings: { max_inbox_ttl: "1h" } } });
      expect((await api("PATCH", `${base}/${domainId}`, { token, body: { settings: { max_inbox_ttl: "2h" } } })).status).toBe(400);
      const patched = await api("PATCH", `${base}/${domainId}`, {
        token,
        body: { access_level: "read_only", settings: { max_inbox_ttl: "30m" } },
      });
      expect(patched).toMatchObject({ status: 200, body: { access_level: "read_only", settings: { max_inbox_ttl: "30m" } } });
      expect((await api("DELETE", `${base}/${domainId}`, { token })).status).toBe(204);
      expect((await api("DELETE", `${base}/${domainId}`, { token })).status).toBe(404);
      expect((await api<Page<unknown>>("GET", base, { token })).body.total).toBe(0);
    });

    it("when a user lists their domains, then each assignment of their teams shows with the team's name and resolved TTLs; a key sees its team's", async () => {
      const world = await teamWithDomain(api);
      const other = await teamWithDomain(api);
      const token = world.owner.token;
      await api("PATCH", `/orgs/${world.orgId}/teams/${world.teamId}`, {
        token,
        body: { settings: { max_inbox_ttl: "2h", default_inbox_ttl: "30m" } },
      });
      const mine = await api<Page<{ id: string; team_name: string; default_ttl: string; max_ttl: string }>>("GET", "/my/domains", {
        token,
      });
      expect(mine.body.data).toEqual([
        expect.objectContaining({ id: world.assignmentId, team_name: "QA", default_ttl: "30m", max_ttl: "2h" }),
      ]);
      expect(mine.body.data.map((d) => d.id)).not.toContain(other.assignmentId);
      const key = await api<{ raw_key: string }>("POST", `/orgs/${world.orgId}/teams/${world.teamId}/api-keys`, {
        token,
        body: { name: "mine", scopes: ["team.domains.view"] },
      });
      const viaKey = await api<Page<{ id: string }>>("GET", "/my/domains", { token: key.body.raw_key });
      expect(viaKey.body.data.map((d) => d.id)).toEqual([world.assignmentId]);
    });

    it("when two teams race for the last slot under max_teams, then exactly one is created", async () => {
      const world = await teamWithDomain(api);
      const token = world.owner.token;
      expect((await api("PATCH", `/orgs/${world.orgId}/settings`, { token, body: { max_teams: 2 } })).status).toBe(200);
      const answers = await Promise.all(
        ["Left", "Right"].map((name) => api<Envelope>("POST", `/orgs/${world.orgId}/teams`, { token, body: { name } })),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
      expect(answers.find((a) => a.status === 409)?.body).toEqual({ error: "team limit reached (2)", code: "conflict" });
    });

    it("when two domains race for the last slot under max_domains, then exactly one is created", async () => {
      const world = await teamWithDomain(api);
      const token = world.owner.token;
      expect((await api("PATCH", `/orgs/${world.orgId}/settings`, { token, body: { max_domains: 2 } })).status).toBe(200);
      const names = [1, 2].map(() => `${randomUUID().slice(0, 8)}.${TRUSTED_DOMAIN}`);
      const answers = await Promise.all(
        names.map((domain_name) => api("POST", `/orgs/${world.orgId}/domains`, { token, body: { domain_name } })),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
      expect((await api<Page<unknown>>("GET", `/orgs/${world.orgId}/domains`, { token })).body.total).toBe(2);
    });
  });
});
