import { randomUUID } from "node:crypto";
import { EventType } from "@burnbox/contracts";
import type { TeamScope } from "@burnbox/service-kit/data";
import { connectNats, type NatsConnection } from "@burnbox/service-kit/messaging";
import { createLogger, type Infra } from "@burnbox/service-kit/runtime";
import { waitFor, type TestService } from "@burnbox/test-kit";
import type { RunningService } from "../src/app";
import type { InboxConfig } from "../src/config";
import { IntakeRepository } from "../src/data/intake.repository";
import { deactivateDomainInboxes } from "../src/domain/tenants/deactivate-domain-inboxes.use-case";
import { moveTeamInboxes } from "../src/domain/tenants/move-team-inboxes.use-case";
import { createTestInbox, startInboxTestService } from "./inbox-test-service";

const DOMAIN = "mail.rcpt-cache.example";
type Pool = NonNullable<Infra["pool"]>;
const logger = createLogger({ service: "rcpt-cache-test", level: "silent" });

/**
 * The intake's recipient cache on the real Postgres and NATS: two intake processes (each an
 * `IntakeRepository` with a NATS connection of its own, keeping recipients for a minute so that
 * only a broadcast or the inbox's own end can drop them) beside the inbox service whose changes
 * they must follow.
 */
describe("the SMTP intake's recipients, kept per process", () => {
  let t: TestService<InboxConfig, RunningService>;
  const scope: TeamScope = { orgId: randomUUID(), teamId: randomUUID() };
  let connections: NatsConnection[];
  let intakes: IntakeRepository[];
  /** The lookup statements each intake ran, by address. */
  let reads: Array<string[]>;

  beforeAll(async () => {
    t = await startInboxTestService("rcache");
    const pool = t.infra.pool as Pool;
    connections = await Promise.all([1, 2].map((n) => connectNats(t.config.nats.url, `intake-${n}`, logger)));
    reads = [[], []];
    intakes = connections.map((nc, n) => {
      const counting = {
        query: (q: { name?: string; values?: unknown[] }) => {
          if (q.name === "intake-locate-receiving") reads[n]?.push(...(q.values?.[0] as string[]));
          return pool.query(q as never);
        },
      } as unknown as Pool;
      return new IntakeRepository(counting, { publishCommitted: () => undefined }, { nc, namespace: t.ns, maxAgeMs: 60_000 });
    });
  });

  afterAll(async () => {
    await Promise.all(intakes?.map((i) => i.idle()) ?? []);
    await Promise.all(connections?.map((nc) => nc.close()) ?? []);
    await t?.stop();
  });

  const inbox = (opts: { expiresAt?: Date; inScope?: TeamScope } = {}) =>
    createTestInbox(t.service.deps, opts.inScope ?? scope, { prefix: "r", domain: DOMAIN, ...opts });
  const readsOf = (n: number, address: string) => reads[n]?.filter((a) => a === address).length ?? 0;

  /** Looks `address` up on every intake until each answers from memory (its broadcast subscription confirmed); returns what they hold. */
  async function held(address: string) {
    return waitFor(
      async () => {
        const before = intakes.map((_, n) => readsOf(n, address));
        const found = await Promise.all(intakes.map((i) => i.locateReceiving(address, new Date())));
        return intakes.every((_, n) => readsOf(n, address) === before[n]) ? found : null;
      },
      { what: "every intake to keep the recipient" },
    );
  }

  /** Resolves once no intake finds a receiving inbox at `address`. */
  const refusedEverywhere = (address: string) =>
    waitFor(async () => (await Promise.all(intakes.map((i) => i.locateReceiving(address, new Date())))).every((r) => r === null), {
      what: "every intake to refuse the address",
      timeoutMs: 5000,
    });

  it("when an address receives, then later lookups are answered from memory; an address with none is read every time", async () => {
    const a = await inbox();
    const found = await held(a.fullAddress);
    expect(found).toEqual([expect.objectContaining({ id: a.id, ...scope }), expect.objectContaining({ id: a.id, ...scope })]);
    const before = readsOf(0, a.fullAddress);
    for (let i = 0; i < 5; i++) expect((await intakes[0]?.locateReceiving(a.fullAddress, new Date()))?.id).toBe(a.id);
    expect(readsOf(0, a.fullAddress)).toBe(before);

    // no inbox yet: not kept, so an inbox made behind every cache's back receives at once
    const unknown = `late-${randomUUID().slice(0, 8)}@${DOMAIN}`;
    expect(await intakes[0]?.locateReceiving(unknown, new Date())).toBeNull();
    expect(await intakes[0]?.locateReceiving(unknown, new Date())).toBeNull();
    expect(readsOf(0, unknown)).toBe(2);
  });

  it("when a kept inbox reaches its end, then it is refused from then on without any broadcast", async () => {
    const endsAt = new Date(Date.now() + 60_000);
    const a = await inbox({ expiresAt: endsAt });
    await held(a.fullAddress);
    expect((await intakes[0]?.locateReceiving(a.fullAddress, new Date(endsAt.getTime() - 1)))?.id).toBe(a.id);
    expect(await intakes[0]?.locateReceiving(a.fullAddress, endsAt)).toBeNull();
    expect(await intakes[1]?.locateReceiving(a.fullAddress, new Date(endsAt.getTime() + 1000))).toBeNull();
  });

  it("when the service removes an inbox with its event, then every intake drops it", async () => {
    const a = await inbox();
    await held(a.fullAddress);
    await t.service.deps.data.write(async (repos, events) => {
      await repos.inboxes.remove(scope, a.id);
      events.event(EventType.inboxDeleted, {
        org_id: scope.orgId,
        team_id: scope.teamId,
        data: { inbox_id: a.id, team_id: scope.teamId, full_address: a.fullAddress, deleted_at: new Date().toISOString() },
      });
    });
    await refusedEverywhere(a.fullAddress);
  });

  it("when the service commits events that leave every inbox receiving, then the intakes keep their recipients", async () => {
    const a = await inbox();
    await held(a.fullAddress);
    const before = intakes.map((_, n) => readsOf(n, a.fullAddress));
    await t.service.deps.data.write(async (_repos, events) => {
      events.audit({
        ctx: null,
        action: "email.updated",
        org_id: scope.orgId,
        team_id: scope.teamId,
        target: { type: "email", id: randomUUID() },
      });
    });
    // NATS keeps one publisher's order per subscriber: once this probe reached both intakes'
    // connections, a broadcast sent after that commit would have reached them before it
    const probe = `${t.ns}.test.probe.${randomUUID()}`;
    const arrived = connections.map((nc) => {
      const sub = nc.subscribe(probe, { max: 1 });
      return (async () => {
        for await (const message of sub) return message;
      })();
    });
    await Promise.all(connections.map((nc) => nc.flush()));
    t.infra.nc.publish(probe);
    await Promise.all(arrived);
    for (const intake of intakes) expect((await intake.locateReceiving(a.fullAddress, new Date()))?.id).toBe(a.id);
    expect(intakes.map((_, n) => readsOf(n, a.fullAddress))).toEqual(before);
  });

  it("when an inbox's SMTP behaviour changes, then every intake reads it again once the write returned", async () => {
    const a = await inbox();
    expect((await held(a.fullAddress)).map((r) => r?.behaviour)).toEqual([null, null]);
    const behaviour = { reject_rcpt: { code: 550, message: "5.7.1 No" } };
    await t.service.deps.data.write((repos) => repos.inboxes.setSmtpBehaviour(scope, a.id, behaviour));
    // the broadcast was on the server before the write returned: it is ahead of a flush's answer
    await Promise.all(connections.map((nc) => nc.flush()));
    for (const intake of intakes) expect((await intake.locateReceiving(a.fullAddress, new Date()))?.behaviour).toEqual(behaviour);
    await t.service.deps.data.write((repos) => repos.inboxes.setSmtpBehaviour(scope, a.id, null));
    await Promise.all(connections.map((nc) => nc.flush()));
    for (const intake of intakes) expect((await intake.locateReceiving(a.fullAddress, new Date()))?.behaviour).toBeNull();
  });

  it("when the inboxes of a moved domain are deactivated, then every intake drops them", async () => {
    const a = await inbox();
    const { rows } = await (t.infra.pool as Pool).query<{ domain_id: string }>("SELECT domain_id::text FROM inboxes WHERE id = $1::uuid", [
      a.id,
    ]);
    await held(a.fullAddress);
    await deactivateDomainInboxes(t.service.deps, {
      consumer: "rcpt-cache-test",
      eventId: randomUUID(),
      fromOrgId: scope.orgId,
      domainId: rows[0]?.domain_id as string,
    });
    await refusedEverywhere(a.fullAddress);
  });

  it("when a team moves to another org, then every intake reads its inboxes again and finds them under the new org", async () => {
    const team: TeamScope = { orgId: randomUUID(), teamId: randomUUID() };
    const a = await inbox({ inScope: team });
    await held(a.fullAddress);
    const toOrgId = randomUUID();
    await moveTeamInboxes(t.service.deps, {
      consumer: "rcpt-cache-test",
      eventId: randomUUID(),
      fromOrgId: team.orgId,
      teamId: team.teamId,
      toOrgId,
    });
    await waitFor(
      async () => (await Promise.all(intakes.map((i) => i.locateReceiving(a.fullAddress, new Date())))).every((r) => r?.orgId === toOrgId),
      { what: "every intake to find the inbox under its new org", timeoutMs: 5000 },
    );
  });
});
