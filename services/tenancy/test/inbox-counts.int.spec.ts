import { randomUUID } from "node:crypto";
import { newEvent } from "@burnbox/service-kit/messaging";
import { makeActor } from "@burnbox/test-kit";
import { deliver, handledThrough, orgTeamDomain, startTenancy, type Tenancy } from "./support";

describe("inbox counters from the inbox service's events", () => {
  let t: Tenancy;
  const owner = makeActor();

  beforeAll(async () => {
    t = await startTenancy();
  });
  afterAll(async () => {
    await t?.stop();
  });

  const created = (orgId: string, teamId: string, fullAddress: string) =>
    newEvent("inbox.created", {
      org_id: orgId,
      team_id: teamId,
      data: { inbox_id: randomUUID(), team_id: teamId, address: "a", full_address: fullAddress, expires_at: new Date().toISOString() },
    });
  const expired = (orgId: string, teamId: string, inboxId: string, fullAddress: string) =>
    newEvent("inbox.expired", {
      org_id: orgId,
      team_id: teamId,
      data: { inbox_id: inboxId, team_id: teamId, full_address: fullAddress, expired_at: new Date().toISOString() },
    });

  async function counters(orgId: string, teamId: string, domainId: string) {
    const team = await t.service.deps.data.repos.teams.get({ orgId, teamId });
    const domain = await t.service.deps.data.repos.domains.get({ orgId }, domainId);
    return { team: team?.active_inboxes, domainActive: domain?.active_inboxes, domainTotal: domain?.total_inboxes };
  }

  it("when an inbox.created event is delivered twice, then the team and domain counters move once", async () => {
    const { orgId, teamId, domain } = await orgTeamDomain(t, owner);
    const event = created(orgId, teamId, `a@${domain.domain_name.toUpperCase()}`);
    await deliver(t, event);
    const again = await deliver(t, event);
    await handledThrough(t, "tenancy-inbox-created", again);
    expect(await counters(orgId, teamId, domain.id)).toEqual({ team: 1, domainActive: 1, domainTotal: 1 });
    const page = await t.call<{ data: Array<{ id: string; active_inboxes: number }> }>("GET", `/orgs/${orgId}/teams`, { actor: owner });
    expect(page.body.data.find((x) => x.id === teamId)?.active_inboxes).toBe(1);
  });

  it("when inboxes expire (one of them twice), then the active counters fall once each and never below zero; the total stays", async () => {
    const { orgId, teamId, domain } = await orgTeamDomain(t, owner);
    const address = `b@${domain.domain_name}`;
    const opened = created(orgId, teamId, address);
    await handledThrough(t, "tenancy-inbox-created", await deliver(t, opened));
    const gone = expired(orgId, teamId, opened.data.inbox_id, address);
    await deliver(t, gone);
    await deliver(t, gone);
    // a different event for an inbox the counters never saw must not take them below zero
    const last = await deliver(t, expired(orgId, teamId, randomUUID(), address));
    await handledThrough(t, "tenancy-inbox-expired", last);
    expect(await counters(orgId, teamId, domain.id)).toEqual({ team: 0, domainActive: 0, domainTotal: 1 });
  });

  const deleted = (orgId: string, teamId: string, inboxId: string, fullAddress: string, wasActive?: boolean) =>
    newEvent("inbox.deleted", {
      org_id: orgId,
      team_id: teamId,
      data: {
        inbox_id: inboxId,
        team_id: teamId,
        full_address: fullAddress,
        deleted_at: new Date().toISOString(),
        ...(wasActive === undefined ? {} : { was_active: wasActive }),
      },
    });

  it("when an active inbox is deleted (the event delivered twice), then the active counters fall once; a deactivated one's deletion moves nothing", async () => {
    const { orgId, teamId, domain } = await orgTeamDomain(t, owner);
    const address = (n: string) => `${n}@${domain.domain_name}`;
    const one = created(orgId, teamId, address("d1"));
    const two = created(orgId, teamId, address("d2"));
    await deliver(t, one);
    await handledThrough(t, "tenancy-inbox-created", await deliver(t, two));
    const gone = deleted(orgId, teamId, one.data.inbox_id, address("d1"), true);
    await deliver(t, gone);
    await deliver(t, gone);
    const last = await deliver(t, deleted(orgId, teamId, two.data.inbox_id, address("d2"), false));
    await handledThrough(t, "tenancy-inbox-deleted", last);
    expect(await counters(orgId, teamId, domain.id)).toEqual({ team: 1, domainActive: 1, domainTotal: 2 });
  });

  it("when an inbox is on a domain tenancy does not know, then only the team counter moves", async () => {
    const { orgId, teamId, domain } = await orgTeamDomain(t, owner);
    const seq = await deliver(t, created(orgId, teamId, `c@elsewhere.example.org`));
    await handledThrough(t, "tenancy-inbox-created", seq);
    expect(await counters(orgId, teamId, domain.id)).toEqual({ team: 1, domainActive: 0, domainTotal: 0 });
  });

  it("when a burst of inbox events arrives (a cleanup expiring many inboxes at once), then every counter, the assignment's too, moves once per event and never below zero", async () => {
    const { orgId, teamId, domain } = await orgTeamDomain(t, owner);
    expect((await t.call("POST", `/orgs/${orgId}/teams/${teamId}/domains`, { actor: owner, body: { domain_id: domain.id } })).status).toBe(
      201,
    );
    const opened = Array.from({ length: 40 }, (_, i) => created(orgId, teamId, `burst${i}@${domain.domain_name}`));
    const seqs = await Promise.all(opened.map((e) => deliver(t, e)));
    await handledThrough(t, "tenancy-inbox-created", Math.max(...seqs));
    const assignment = async () => (await t.service.deps.data.repos.domainAssignments.get({ orgId, teamId }, domain.id))?.activeInboxes;
    expect(await counters(orgId, teamId, domain.id)).toEqual({ team: 40, domainActive: 40, domainTotal: 40 });
    expect(await assignment()).toBe(40);
    // each opened inbox expires, every event twice, and ten more for inboxes the counters never saw: 50 closings of 40
    const closings = [
      ...opened.map((e) => expired(orgId, teamId, e.data.inbox_id, e.data.full_address)),
      ...Array.from({ length: 10 }, (_, i) => expired(orgId, teamId, randomUUID(), `ghost${i}@${domain.domain_name}`)),
    ];
    const last = await Promise.all([...closings, ...closings.slice(0, 40)].map((e) => deliver(t, e)));
    await handledThrough(t, "tenancy-inbox-expired", Math.max(...last));
    expect(await counters(orgId, teamId, domain.id)).toEqual({ team: 0, domainActive: 0, domainTotal: 40 });
    expect(await assignment()).toBe(0);
  });

  it("when one event is counted twice in the same statement, then it counts once and the second is told it was seen", async () => {
    const { orgId, teamId, domain } = await orgTeamDomain(t, owner);
    const move = { claim: { consumer: "tenancy-inbox-created", eventId: randomUUID() }, teamId, domainName: domain.domain_name };
    const counted = await Promise.all([1, 2, 3].map(() => t.service.deps.data.hot.inboxCounters.count(move, 1)));
    expect(counted.filter(Boolean)).toHaveLength(1);
    expect(await counters(orgId, teamId, domain.id)).toEqual({ team: 1, domainActive: 1, domainTotal: 1 });
  });
});
