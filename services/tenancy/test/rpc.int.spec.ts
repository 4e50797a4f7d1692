import { randomUUID } from "node:crypto";
import { RpcName, type Actor } from "@burnbox/contracts";
import { rpcRequest, serveRpc } from "@burnbox/service-kit/messaging";
import { makeActor } from "@burnbox/test-kit";
import { orgTeamDomain, startTenancy, trustedDomainName, type Tenancy } from "./support";

describe("the decisions tenancy answers over NATS request/reply", () => {
  let t: Tenancy;
  const owner = makeActor();
  const outsider = makeActor();

  beforeAll(async () => {
    t = await startTenancy();
  });
  afterAll(async () => {
    await t?.stop();
  });

  it("when asked to authorize, then it answers from the actor's roles, the team's org and the key's scopes", async () => {
    const { orgId, teamId } = await orgTeamDomain(t, owner);
    const other = await orgTeamDomain(t, owner);
    const ask = (actor: Actor, permission: string, team: string | null = teamId) =>
      rpcRequest(t.infra.nc, t.ns, RpcName.authorize, { actor, org_id: orgId, team_id: team, permission });
    expect(await ask(owner, "team.webhooks.manage")).toEqual({ allowed: true, reason: null });
    expect(await ask(outsider, "team.inboxes.view")).toEqual({ allowed: false, reason: "not_member" });
    expect(await ask(owner, "org.view", null)).toEqual({ allowed: true, reason: null });
    expect(await ask(owner, "team.view", randomUUID())).toEqual({ allowed: false, reason: "team_not_found" });
    expect(await ask(owner, "team.view", other.teamId)).toEqual({ allowed: false, reason: "team_not_found" });
    expect(await ask(makeActor({ is_system_admin: true }), "org.delete", null)).toEqual({ allowed: true, reason: null });
    const key = { ...owner, api_key: { id: randomUUID(), team_id: teamId, scopes: ["team.inboxes.view"] } };
    expect(await ask(key, "team.inboxes.view")).toEqual({ allowed: true, reason: null });
    expect(await ask(key, "team.webhooks.view")).toEqual({ allowed: false, reason: "missing_permission" });
    const unknownOrg = await rpcRequest(t.infra.nc, t.ns, RpcName.authorize, {
      actor: owner,
      org_id: randomUUID(),
      team_id: null,
      permission: "org.view",
    });
    expect(unknownOrg).toEqual({ allowed: false, reason: "org_not_found" });
  });

  it("when asked for an assignment, then it answers with the org's TTL defaults, or null for an unknown id", async () => {
    const { orgId, teamId, domain } = await orgTeamDomain(t, owner);
    const assignment = await t.call<{ id: string }>("POST", `/orgs/${orgId}/teams/${teamId}/domains`, {
      actor: owner,
      body: { domain_id: domain.id, access_level: "read_only" },
    });
    const got = await rpcRequest(t.infra.nc, t.ns, RpcName.getAssignment, { assignment_id: assignment.body.id });
    expect(got.assignment).toEqual({
      id: assignment.body.id,
      org_id: orgId,
      team_id: teamId,
      domain_id: domain.id,
      domain_name: domain.domain_name,
      access_level: "read_only",
      domain_verified: true,
      team_archived: false,
      default_ttl_seconds: 600,
      max_ttl_seconds: 86400,
      max_inboxes_per_domain: 1000,
      outbound_allowed_recipients: [],
    });
    expect((await rpcRequest(t.infra.nc, t.ns, RpcName.getAssignment, { assignment_id: randomUUID() })).assignment).toBeNull();
  });

  it("when asked for the actor's teams, then it lists the teams they act on, only the key's team for a key", async () => {
    const { orgId, teamId } = await orgTeamDomain(t, owner);
    const second = await t.call<{ id: string }>("POST", `/orgs/${orgId}/teams`, { actor: owner, body: { name: "Second" } });
    const teamsOf = async (actor: Actor, permission = "team.inboxes.view") =>
      (await rpcRequest(t.infra.nc, t.ns, RpcName.listActorTeams, { actor, permission })).teams;
    expect(await teamsOf(owner)).toEqual(
      expect.arrayContaining([
        { org_id: orgId, team_id: teamId },
        { org_id: orgId, team_id: second.body.id },
      ]),
    );
    expect(await teamsOf(outsider)).toEqual([]);
    expect(await teamsOf(owner, "org.view")).toEqual([]);
    const key = { ...owner, api_key: { id: randomUUID(), team_id: teamId, scopes: ["team.inboxes.view"] } };
    expect(await teamsOf(key)).toEqual([{ org_id: orgId, team_id: teamId }]);
    expect(await teamsOf(key, "team.webhooks.view")).toEqual([]);
    expect(await teamsOf(makeActor({ is_system_admin: true }))).toEqual(expect.arrayContaining([{ org_id: orgId, team_id: teamId }]));
  });

  it("when a domain is assigned create_inbox, then the decisions on inboxes and mail name it for members, never for owners and admins", async () => {
    const { orgId, teamId, domain } = await orgTeamDomain(t, owner);
    const second = await t.call<{ id: string }>("POST", `/orgs/${orgId}/domains`, {
      actor: owner,
      body: { domain_name: trustedDomainName() },
    });
    const own = await t.call<{ id: string }>("POST", `/orgs/${orgId}/teams/${teamId}/domains`, {
      actor: owner,
      body: { domain_id: domain.id, access_level: "create_inbox" },
    });
    await t.call("POST", `/orgs/${orgId}/teams/${teamId}/domains`, {
      actor: owner,
      body: { domain_id: second.body.id, access_level: "full" },
    });
    const [member, lead, admin] = [makeActor(), makeActor(), makeActor()];
    // identity's user directory, which adding a member asks
    const directory = serveRpc(
      t.infra.nc,
      t.ns,
      RpcName.lookupUsers,
      (req) =>
        Promise.resolve({
          users: [member, lead, admin]
            .filter((u) => req.user_ids.includes(u.user_id))
            .map((u) => ({ id: u.user_id, email: u.email, display_name: "U", last_login_at: null })),
        }),
      t.infra.logger,
    );
    await t.call("POST", `/orgs/${orgId}/members/add`, { actor: owner, body: { user_id: member.user_id, role: "member" } });
    await t.call("POST", `/orgs/${orgId}/members/add`, { actor: owner, body: { user_id: lead.user_id, role: "member" } });
    await t.call("POST", `/orgs/${orgId}/members/add`, { actor: owner, body: { user_id: admin.user_id, role: "admin" } });
    await t.call("POST", `/orgs/${orgId}/teams/${teamId}/members`, { actor: owner, body: { user_id: member.user_id, role: "member" } });
    await t.call("POST", `/orgs/${orgId}/teams/${teamId}/members`, { actor: owner, body: { user_id: lead.user_id, role: "lead" } });
    await directory.stop();
    const ask = (actor: Actor, permission: string) =>
      rpcRequest(t.infra.nc, t.ns, RpcName.authorize, { actor, org_id: orgId, team_id: teamId, permission });
    const teamsOf = async (actor: Actor, permission: string) =>
      (await rpcRequest(t.infra.nc, t.ns, RpcName.listActorTeams, { actor, permission })).teams;
    const narrowed = { allowed: true, reason: null, own_only_assignments: [own.body.id] };
    for (const permission of ["team.inboxes.view", "team.inboxes.manage", "team.emails.view", "team.emails.manage"]) {
      expect({ permission, member: await ask(member, permission), lead: await ask(lead, permission) }).toEqual({
        permission,
        member: narrowed,
        lead: narrowed,
      });
      const key = { ...member, api_key: { id: randomUUID(), team_id: teamId, scopes: [permission] } };
      expect(await ask(key, permission)).toEqual(narrowed);
      expect(await teamsOf(member, permission)).toEqual([{ org_id: orgId, team_id: teamId, own_only_assignments: [own.body.id] }]);
      for (const wide of [owner, admin, makeActor({ is_system_admin: true })]) {
        expect(await ask(wide, permission)).toEqual({ allowed: true, reason: null });
        expect(await teamsOf(wide, permission)).toContainEqual({ org_id: orgId, team_id: teamId });
      }
    }
    // creating is what the level grants; other permissions are not about inboxes
    expect(await ask(member, "team.inboxes.create")).toEqual({ allowed: true, reason: null });
    expect(await ask(member, "team.domains.view")).toEqual({ allowed: true, reason: null });
    expect(await teamsOf(member, "team.domains.view")).toEqual([{ org_id: orgId, team_id: teamId }]);
    // the level is read at each decision: once full, nothing is narrowed
    await t.call("PATCH", `/orgs/${orgId}/teams/${teamId}/domains/${domain.id}`, { actor: owner, body: { access_level: "full" } });
    expect(await ask(member, "team.emails.view")).toEqual({ allowed: true, reason: null });
    expect(await teamsOf(member, "team.emails.view")).toEqual([{ org_id: orgId, team_id: teamId }]);
  });
});
