import { RpcName } from "@burnbox/contracts";
import { serveRpc } from "@burnbox/service-kit/messaging";
import { makeActor } from "@burnbox/test-kit";
import { orgTeamDomain, startTenancy, trustedDomainName, type Tenancy } from "./support";

async function outboxTypes(t: Tenancy, orgId: string): Promise<string[]> {
  const { rows } = await t.infra.pool!.query<{ type: string }>(
    `SELECT payload->>'type' AS type FROM outbox_events WHERE payload->>'org_id' = $1 AND payload->>'type' <> 'audit.recorded' ORDER BY created_at`,
    [orgId],
  );
  return rows.map((r) => r.type);
}

describe("quotas, archiving and the TTL cascade", () => {
  let t: Tenancy;
  const owner = makeActor();

  beforeAll(async () => {
    t = await startTenancy();
  });
  afterAll(async () => {
    await t?.stop();
  });

  it("when two teams are created at once with one slot left under max_teams, then exactly one is created", async () => {
    const { orgId } = await orgTeamDomain(t, owner);
    expect((await t.call("PATCH", `/orgs/${orgId}/settings`, { actor: owner, body: { max_teams: 2 } })).status).toBe(200);
    const answers = await Promise.all(
      ["Racer A", "Racer B", "Racer C"].map((name) =>
        t.call<{ error?: string }>("POST", `/orgs/${orgId}/teams`, { actor: owner, body: { name } }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409]);
    expect(answers.find((a) => a.status === 409)?.body.error).toBe("team limit reached (2)");
  });

  it("when two domains are created at once with one slot left under max_domains, then exactly one is created", async () => {
    const { orgId } = await orgTeamDomain(t, owner);
    expect((await t.call("PUT", `/orgs/${orgId}/settings`, { actor: owner, body: { max_domains: 2 } })).status).toBe(200);
    const answers = await Promise.all(
      [1, 2].map(() => t.call("POST", `/orgs/${orgId}/domains`, { actor: owner, body: { domain_name: trustedDomainName() } })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
  });

  it("when a team is archived, restored and deleted, then each change is an event for the other services", async () => {
    const { orgId, teamId } = await orgTeamDomain(t, owner);
    const archived = await t.call<{ is_archived: boolean }>("POST", `/orgs/${orgId}/teams/${teamId}/archive`, { actor: owner });
    expect(archived.body.is_archived).toBe(true);
    const refused = await t.call("PATCH", `/orgs/${orgId}/teams/${teamId}`, { actor: owner, body: { name: "Renamed" } });
    expect(refused).toMatchObject({ status: 409, body: { error: "team is archived", code: "conflict" } });
    expect((await t.call("POST", `/orgs/${orgId}/teams/${teamId}/restore`, { actor: owner })).status).toBe(200);
    // identity's key removal, which the deletion awaits before it answers (read your writes)
    const asked: unknown[] = [];
    const identity = serveRpc(
      t.infra.nc,
      t.ns,
      RpcName.removeTenantKeys,
      (req) => {
        asked.push(req);
        return Promise.resolve({ removed: 0 });
      },
      t.infra.logger,
    );
    try {
      expect((await t.call("DELETE", `/orgs/${orgId}/teams/${teamId}`, { actor: owner })).status).toBe(204);
    } finally {
      await identity.stop();
    }
    expect(asked).toEqual([{ org_id: orgId, team_id: teamId }]);
    expect(await outboxTypes(t, orgId)).toEqual(["team.archived", "team.restored", "team.deleted"]);
    expect((await t.call("GET", `/orgs/${orgId}/teams/${teamId}`, { actor: owner })).status).toBe(404);
  });

  it("when a team's max_inbox_ttl exceeds the org's, then it is refused; a lower one is taken", async () => {
    const { orgId, teamId } = await orgTeamDomain(t, owner);
    await t.call("PATCH", `/orgs/${orgId}/settings`, { actor: owner, body: { max_inbox_ttl: "2h" } });
    const refused = await t.call("PATCH", `/orgs/${orgId}/teams/${teamId}`, { actor: owner, body: { settings: { max_inbox_ttl: "3h" } } });
    expect(refused.status).toBe(400);
    const taken = await t.call("PATCH", `/orgs/${orgId}/teams/${teamId}`, { actor: owner, body: { settings: { max_inbox_ttl: "1h" } } });
    expect(taken).toMatchObject({ status: 200, body: { settings: { max_inbox_ttl: "1h" } } });
    const badOrg = await t.call("PATCH", `/orgs/${orgId}/settings`, { actor: owner, body: { default_inbox_ttl: "3h" } });
    expect(badOrg.status).toBe(400);
  });
});
