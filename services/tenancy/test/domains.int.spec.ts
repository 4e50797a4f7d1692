import { randomUUID } from "node:crypto";
import { makeActor, waitFor } from "@burnbox/test-kit";
import { auditsOf, orgTeamDomain, startTenancy, trustedDomainName, type Tenancy } from "./support";

describe("domains and their assignment to teams", () => {
  let t: Tenancy;
  const owner = makeActor();
  const outsider = makeActor();

  beforeAll(async () => {
    t = await startTenancy();
  });
  afterAll(async () => {
    await t?.stop();
  });

  it("when a trusted domain is added, then it is verified and assignable once; an untrusted one is not", async () => {
    const { orgId, teamId, domain } = await orgTeamDomain(t, owner);
    expect(domain.status).toBe("verified");
    const assigned = await t.call<{ domain_id: string; domain_name: string; access_level: string }>(
      "POST",
      `/orgs/${orgId}/teams/${teamId}/domains`,
      { actor: owner, body: { domain_id: domain.id } },
    );
    expect(assigned.status).toBe(201);
    expect(assigned.body).toMatchObject({ team_id: teamId, domain_id: domain.id, domain_name: domain.domain_name, access_level: "full" });
    const twice = await t.call<{ error: string }>("POST", `/orgs/${orgId}/teams/${teamId}/domains`, {
      actor: owner,
      body: { domain_id: domain.id },
    });
    expect(twice.status).toBe(409);
    expect(twice.body.error).toBe("domain already assigned to this team");

    const pending = await t.call<{ id: string; status: string; verification_record: string; mx_verified: boolean }>(
      "POST",
      `/orgs/${orgId}/domains`,
      { actor: owner, body: { domain_name: `${randomUUID().slice(0, 8)}.example.com` } },
    );
    expect(pending.body).toMatchObject({ status: "pending_verification", mx_verified: false });
    expect(pending.body.verification_record).toMatch(/^burnbox-verify=[0-9a-f]{32}$/);
    const refused = await t.call<{ error: string; code: string }>("POST", `/orgs/${orgId}/teams/${teamId}/domains`, {
      actor: owner,
      body: { domain_id: pending.body.id },
    });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ error: "domain must be verified before it is assigned", code: "conflict" });
  });

  it("when a domain name is already registered by any org, then adding it again is a 409", async () => {
    const { orgId } = await orgTeamDomain(t, owner);
    const rival = makeActor();
    const other = await orgTeamDomain(t, rival);
    const name = trustedDomainName();
    expect((await t.call("POST", `/orgs/${orgId}/domains`, { actor: owner, body: { domain_name: name } })).status).toBe(201);
    const taken = await t.call<{ error: string; code: string }>("POST", `/orgs/${other.orgId}/domains`, {
      actor: rival,
      body: { domain_name: name.toUpperCase() },
    });
    expect(taken.status).toBe(409);
    expect(taken.body).toEqual({ error: "domain already exists", code: "conflict" });
  });

  it("when a team of another org is in the path, then the answer is the one for an unknown team and nothing is assigned", async () => {
    const mine = await orgTeamDomain(t, owner);
    const theirs = await orgTeamDomain(t, owner);
    const assignTo = (teamId: string) =>
      t.call<{ error: string; code: string }>("POST", `/orgs/${mine.orgId}/teams/${teamId}/domains`, {
        actor: owner,
        body: { domain_id: mine.domain.id },
      });
    const unknown = await assignTo(randomUUID());
    const crossOrg = await assignTo(theirs.teamId);
    expect(unknown.status).toBe(404);
    expect(crossOrg.status).toBe(unknown.status);
    expect(crossOrg.body).toEqual(unknown.body);
    expect(crossOrg.body).toEqual({ error: "team not found", code: "not_found" });
    // the refused requests wrote nothing: the one later assignment is the org's only one
    expect((await assignTo(mine.teamId)).status).toBe(201);
    const assigned = (await auditsOf(t, mine.orgId)).filter((a) => a.event.data.action === "domain.assigned");
    expect(assigned.map((a) => a.event.team_id)).toEqual([mine.teamId]);
  });

  it("when a domain of another org is assigned, then it is not found", async () => {
    const mine = await orgTeamDomain(t, owner);
    const theirs = await orgTeamDomain(t, owner);
    const refused = await t.call<{ error: string }>("POST", `/orgs/${mine.orgId}/teams/${mine.teamId}/domains`, {
      actor: owner,
      body: { domain_id: theirs.domain.id },
    });
    expect(refused.status).toBe(404);
    expect(refused.body.error).toBe("domain not found");
  });

  it("when an outsider adds or assigns a domain, then the org and the team stay hidden", async () => {
    const { orgId, teamId, domain } = await orgTeamDomain(t, owner);
    const add = await t.call<{ error: string }>("POST", `/orgs/${orgId}/domains`, {
      actor: outsider,
      body: { domain_name: trustedDomainName() },
    });
    expect(add.status).toBe(404);
    expect(add.body.error).toBe("organization not found");
    const assign = await t.call<{ error: string }>("POST", `/orgs/${orgId}/teams/${teamId}/domains`, {
      actor: outsider,
      body: { domain_id: domain.id },
    });
    expect(assign.status).toBe(404);
  });

  it("when a domain is added and assigned, then both are audited with their targets and published", async () => {
    const { orgId, teamId, domain } = await orgTeamDomain(t, owner);
    const assigned = await t.call<{ id: string }>("POST", `/orgs/${orgId}/teams/${teamId}/domains`, {
      actor: owner,
      body: { domain_id: domain.id, access_level: "create_inbox" },
    });
    const audits = await waitFor(async () => {
      const found = (await auditsOf(t, orgId)).filter((a) => a.event.data.action.startsWith("domain."));
      return found.length === 2 && found.every((a) => a.published) ? found.map((a) => a.event) : null;
    });
    expect(audits).toEqual([
      expect.objectContaining({
        team_id: null,
        data: expect.objectContaining({
          action: "domain.created",
          actor_user_id: owner.user_id,
          target_type: "domain",
          target_id: domain.id,
          metadata: { domain_name: domain.domain_name, trusted: true },
        }),
      }),
      expect.objectContaining({
        team_id: teamId,
        data: expect.objectContaining({
          action: "domain.assigned",
          target_type: "domain_assignment",
          target_id: assigned.body.id,
          metadata: { domain_id: domain.id, domain_name: domain.domain_name, access_level: "create_inbox" },
        }),
      }),
    ]);
  });
});
