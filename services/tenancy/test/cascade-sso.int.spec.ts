import { randomUUID } from "node:crypto";
import { RpcName, TEAM_PERMISSIONS, subjects, type EventOf } from "@burnbox/contracts";
import { newEvent, rpcRequest, serveRpc } from "@burnbox/service-kit/messaging";
import { makeActor, waitFor } from "@burnbox/test-kit";
import { deliver, handledThrough, orgTeamDomain, startTenancy, type Tenancy } from "./support";

const SSO_CONSUMER = "tenancy-sso-provisioned";

/**
 * Tenancy's side of the cross-service rules on real Postgres and NATS: the memberships of SSO
 * users from identity's `user.sso_provisioned`, the scopes an API key may carry (custom team keys
 * included), the `max_inboxes_per_domain` limit in get_assignment, and `team.transferred`.
 */
describe("tenancy: SSO provisioning events, API-key scopes, the inbox limit and team transfers", () => {
  let t: Tenancy;
  const owner = makeActor();
  const root = makeActor({ is_system_admin: true });

  beforeAll(async () => {
    t = await startTenancy();
  });
  afterAll(async () => {
    await t?.stop();
  });

  const repos = () => t.service.deps.data.repos;
  const provisioned = (userId: string, memberships: EventOf<"user.sso_provisioned">["data"]["memberships"]) =>
    newEvent("user.sso_provisioned", { org_id: null, team_id: null, data: { user_id: userId, provider: "corp", memberships } });

  describe("user.sso_provisioned", () => {
    it("when identity provisions an SSO user, then tenancy makes the mapped org and team memberships with their roles, audited", async () => {
      const { orgId, teamId } = await orgTeamDomain(t, owner);
      const user = randomUUID();
      const seq = await deliver(t, provisioned(user, [{ org_id: orgId, org_role: "admin", team_id: teamId, team_role: "lead" }]));
      await handledThrough(t, SSO_CONSUMER, seq);
      expect(await repos().orgMembers.get({ orgId }, user)).toMatchObject({ role: "admin" });
      expect(await repos().teamMembers.get({ orgId, teamId }, user)).toMatchObject({ role: "lead" });
      const { rows } = await t.infra.pool!.query<{ action: string }>(
        `SELECT payload->'data'->>'action' AS action FROM outbox_events
         WHERE payload->>'type' = 'audit.recorded' AND payload->'data'->>'target_id' = $1 ORDER BY created_at`,
        [user],
      );
      expect(rows.map((r) => r.action)).toEqual(["member.added", "team.member_added"]);
    });

    it("when the same event is delivered again, then nothing changes (a membership removed since is not made again)", async () => {
      const { orgId, teamId } = await orgTeamDomain(t, owner);
      const user = randomUUID();
      const event = provisioned(user, [{ org_id: orgId, org_role: "member", team_id: teamId, team_role: "member" }]);
      await handledThrough(t, SSO_CONSUMER, await deliver(t, event));
      expect(await repos().teamMembers.get({ orgId, teamId }, user)).not.toBeNull();
      await t.infra.pool!.query("DELETE FROM team_members WHERE team_id = $1 AND user_id = $2", [teamId, user]);
      await handledThrough(t, SSO_CONSUMER, await deliver(t, event));
      expect(await repos().teamMembers.get({ orgId, teamId }, user)).toBeNull();
      expect(await repos().orgMembers.get({ orgId }, user)).toMatchObject({ role: "member" });
    });

    it("when a mapped team is archived, an org is unknown or a role is unknown, then that membership is skipped and the others are made", async () => {
      const a = await orgTeamDomain(t, owner);
      const b = await orgTeamDomain(t, owner);
      expect((await t.call("POST", `/orgs/${a.orgId}/teams/${a.teamId}/archive`, { actor: owner })).status).toBe(200);
      const user = randomUUID();
      const seq = await deliver(
        t,
        provisioned(user, [
          { org_id: a.orgId, org_role: "member", team_id: a.teamId, team_role: "lead" },
          { org_id: randomUUID(), org_role: "member", team_id: null, team_role: null },
          { org_id: b.orgId, org_role: "no_such_role", team_id: null, team_role: null },
        ]),
      );
      await handledThrough(t, SSO_CONSUMER, seq);
      expect(await repos().orgMembers.get({ orgId: a.orgId }, user)).toMatchObject({ role: "member" });
      expect(await repos().teamMembers.get({ orgId: a.orgId, teamId: a.teamId }, user)).toBeNull();
      expect(await repos().orgMembers.get({ orgId: b.orgId }, user)).toBeNull();
    });
  });

  describe("tenancy.team_scopes", () => {
    it("when a custom team role adds a key, then it is a known scope at once; holders are the role's members and org owners; a key keeps its own", async () => {
      const { orgId, teamId } = await orgTeamDomain(t, owner);
      const key = `team.reports.${
        randomUUID()
          .replace(/[^a-f]/g, "")
          .slice(0, 6) || "x"
      }view`;
      const value = `rep_${randomUUID().slice(0, 8).replace(/-/g, "")}`;
      const ask = (actor = owner) => rpcRequest(t.infra.nc, t.ns, RpcName.teamScopes, { actor, org_id: orgId, team_id: teamId });
      expect((await ask()).known).not.toContain(key);
      const role = await t.call("POST", "/admin/roles", {
        actor: root,
        body: { scope: "team", value, label: "Reporter", rank: 15, permissions: ["team.view", key] },
      });
      expect(role.status).toBe(201);
      const byOwner = await ask();
      expect(byOwner.known).toEqual(expect.arrayContaining([...TEAM_PERMISSIONS, key]));
      expect(byOwner.held).toEqual(byOwner.known);
      const reporter = makeActor();
      await repos().orgMembers.add({ orgId }, reporter.user_id, "member");
      await repos().teamMembers.add({ orgId, teamId }, reporter.user_id, value);
      expect((await ask(reporter)).held.sort()).toEqual(["team.view", key].sort());
      const keyActor = { ...owner, api_key: { id: randomUUID(), team_id: teamId, scopes: [key] } };
      expect((await ask(keyActor)).held).toEqual([key]);
      expect((await ask(makeActor())).held).toEqual([]);
    });
  });

  describe("tenancy.get_assignment max_inboxes_per_domain", () => {
    it("when org, domain and team set limits, then the smallest is answered", async () => {
      const { orgId, teamId, domain } = await orgTeamDomain(t, owner);
      const assignment = await t.call<{ id: string }>("POST", `/orgs/${orgId}/teams/${teamId}/domains`, {
        actor: owner,
        body: { domain_id: domain.id },
      });
      const limit = async () =>
        (await rpcRequest(t.infra.nc, t.ns, RpcName.getAssignment, { assignment_id: assignment.body.id })).assignment
          ?.max_inboxes_per_domain;
      expect(await limit()).toBe(1000);
      expect((await t.call("PATCH", `/orgs/${orgId}/settings`, { actor: owner, body: { max_inboxes_per_domain: 50 } })).status).toBe(200);
      expect(await limit()).toBe(50);
      const team = await t.call("PATCH", `/orgs/${orgId}/teams/${teamId}`, {
        actor: owner,
        body: { settings: { max_inboxes_per_domain: 7 } },
      });
      expect(team.status).toBe(200);
      expect(await limit()).toBe(7);
    });
  });

  describe("team.transferred", () => {
    it("when a system admin moves a team to another org, then team.transferred names both orgs", async () => {
      const from = await orgTeamDomain(t, owner);
      const to = { orgId: (await t.call<{ id: string }>("POST", "/orgs", { actor: owner, body: { name: "Target" } })).body.id };
      const seen: Array<EventOf<"team.transferred">> = [];
      const sub = t.infra.nc.subscribe(subjects(t.ns).event("team.transferred"), {
        callback: (_e, msg) => {
          seen.push(msg.json<EventOf<"team.transferred">>());
        },
      });
      // the services holding team data, asked to move it before the answer (read your writes)
      const asked: Array<{ rpc: string; event_id: string }> = [];
      const owners = [RpcName.moveTeamApiKeys, RpcName.moveTeamInboxes, RpcName.moveTeamWebhooks].map((rpc) =>
        serveRpc(
          t.infra.nc,
          t.ns,
          rpc,
          (req) => {
            asked.push({ rpc, event_id: req.event_id });
            return Promise.resolve({});
          },
          t.infra.logger,
        ),
      );
      let moved;
      try {
        moved = await t.call("POST", `/orgs/${from.orgId}/teams/${from.teamId}/transfer`, {
          actor: root,
          body: { target_org_id: to.orgId },
        });
      } finally {
        await Promise.all(owners.map((o) => o.stop()));
      }
      expect(moved.status).toBe(200);
      const event = await waitFor(() => seen.find((e) => e.data.team_id === from.teamId), { what: "team.transferred" });
      sub.unsubscribe();
      expect(event).toMatchObject({ org_id: from.orgId, data: { team_id: from.teamId, from_org_id: from.orgId, to_org_id: to.orgId } });
      // each was asked once, under the event's id (so the event is then a no-op for them)
      expect(asked.map((a) => a.rpc).sort()).toEqual([RpcName.moveTeamApiKeys, RpcName.moveTeamInboxes, RpcName.moveTeamWebhooks].sort());
      expect(new Set(asked.map((a) => a.event_id))).toEqual(new Set([event.id]));
    });
  });
});
