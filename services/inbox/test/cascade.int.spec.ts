import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import nodemailer from "nodemailer";
import { RpcName, subjects, type GetAssignmentReply } from "@burnbox/contracts";
import { newEvent, publishEvent, serveRpc } from "@burnbox/service-kit/messaging";
import { startInfra, type Infra } from "@burnbox/service-kit/runtime";
import { LogCapture, makeActor, waitFor, type TestService } from "@burnbox/test-kit";
import { startIntake, type RunningIntake, type RunningService } from "../src/app";
import type { InboxConfig } from "../src/config";
import { REMOVAL_BATCH } from "../src/domain/tenants/remove-tenant-inboxes.use-case";
import { MIGRATIONS_DIR, startInboxTestService } from "./inbox-test-service";

type Assignment = NonNullable<GetAssignmentReply["assignment"]>;

/** Tenancy's deletions and transfers, and the per-domain inbox quota, on real Postgres and NATS. */
describe("inbox: tenancy's removals and the max_inboxes_per_domain quota", () => {
  let t: TestService<InboxConfig, RunningService>;
  let ns: string;
  let config: InboxConfig;
  let infra: Infra;
  let intakeInfra: Infra;
  let intake: RunningIntake;
  let call: TestService<InboxConfig, RunningService>["call"];
  const owner = makeActor();
  /** Tenancy's assignments, answered over the real NATS; everyone is allowed in their team. */
  const assignments = new Map<string, Assignment>();
  let stops: Array<{ stop(): Promise<void> }> = [];

  beforeAll(async () => {
    t = await startInboxTestService("inbcas");
    ({ ns, config, infra, call } = t);
    intakeInfra = await startInfra({ config, database: { url: t.dbUrl, migrationsDir: MIGRATIONS_DIR }, logDestination: new LogCapture() });
    stops = [
      serveRpc(
        infra.nc,
        ns,
        RpcName.getAssignment,
        async (req) => ({ assignment: assignments.get(req.assignment_id) ?? null }),
        infra.logger,
      ),
      serveRpc(infra.nc, ns, RpcName.authorize, async () => ({ allowed: true, reason: null }), infra.logger),
    ];
    intake = await startIntake(config, intakeInfra);
  });

  afterAll(async () => {
    await intake?.stop();
    await intakeInfra?.close();
    await Promise.all(stops.map((s) => s.stop()));
    await t?.stop();
  });

  /** A team with a verified domain assigned to it, as tenancy would answer for it. */
  function team(opts: { maxInboxes?: number; orgId?: string } = {}) {
    const a: Assignment = {
      id: randomUUID(),
      org_id: opts.orgId ?? randomUUID(),
      team_id: randomUUID(),
      domain_id: randomUUID(),
      domain_name: `d${randomUUID().slice(0, 8)}.cascade.example`,
      access_level: "full",
      domain_verified: true,
      team_archived: false,
      default_ttl_seconds: 600,
      max_ttl_seconds: 86_400,
      max_inboxes_per_domain: opts.maxInboxes ?? 1000,
    };
    assignments.set(a.id, a);
    return a;
  }
  const create = (a: Assignment, alias?: string) =>
    call<{ id: string; full_address: string; error?: string }>("POST", "/inboxes", {
      actor: owner,
      body: { domain_assignment_id: a.id, ...(alias ? { alias } : {}) },
    });
  const mailer = () => nodemailer.createTransport({ host: "127.0.0.1", port: intake.smtpPort, secure: false, ignoreTLS: true });
  const rows = async (sql: string, params: unknown[]) => (await infra.pool!.query<Record<string, unknown>>(sql, params)).rows;
  const inboxCount = async (where: string, id: string) =>
    Number((await rows(`SELECT count(*)::int AS n FROM inboxes WHERE ${where} = $1`, [id]))[0]!.n);

  /** Inserts `n` inboxes of a team straight into Postgres (a large team, quickly). */
  async function bulkInboxes(a: Assignment, n: number): Promise<void> {
    await infra.pool!.query(
      `INSERT INTO inboxes (id, org_id, team_id, domain_id, domain_assignment_id, created_by, address, domain_name, full_address, expires_at, ttl_ms)
       SELECT gen_random_uuid(), $1, $2, $3, $4, $5, 'bulk' || i, $6, 'bulk' || i || '@' || $6, now() + interval '1 hour', 3600000
       FROM generate_series(1, $7::int) AS i`,
      [a.org_id, a.team_id, a.domain_id, a.id, owner.user_id, a.domain_name, n],
    );
  }

  describe("max_inboxes_per_domain", () => {
    it("when two creates race at the limit, then exactly one wins and the other is 409 (five domains at once)", async () => {
      const domains = Array.from({ length: 5 }, () => team({ maxInboxes: 2 }));
      for (const a of domains) expect((await create(a)).status).toBe(201);
      const raced = await Promise.all(domains.map((a) => Promise.all([create(a), create(a)])));
      for (const [i, pair] of raced.entries()) {
        expect(pair.map((r) => r.status).sort()).toEqual([201, 409]);
        expect(pair.find((r) => r.status === 409)?.body).toEqual({ error: "inbox limit reached for this domain (2)", code: "conflict" });
        expect(await inboxCount("domain_id", domains[i]!.domain_id)).toBe(2);
      }
    });

    it("when many creates race, then the domain never holds more active inboxes than its limit", async () => {
      const a = team({ maxInboxes: 4 });
      const raced = await Promise.all(Array.from({ length: 10 }, () => create(a)));
      expect(raced.filter((r) => r.status === 201)).toHaveLength(4);
      expect(raced.filter((r) => r.status === 409)).toHaveLength(6);
      expect(await inboxCount("domain_id", a.domain_id)).toBe(4);
    });

    it("when an inbox of the domain has expired, then it no longer counts", async () => {
      const a = team({ maxInboxes: 1 });
      const first = await create(a);
      expect((await create(a)).status).toBe(409);
      await infra.pool!.query("UPDATE inboxes SET expires_at = now() - interval '1 second' WHERE id = $1", [first.body.id]);
      expect((await create(a)).status).toBe(201);
    });
  });

  describe("org.deleted and team.deleted", () => {
    it("when a team is deleted, then its inboxes, mail and files go, mail to it is refused, and no inbox is created for it again", async () => {
      const a = team();
      const other = team({ orgId: a.org_id }); // another team of the same org stays
      const inbox = await create(a, `gone-${randomUUID().slice(0, 6)}`);
      const kept = await create(other, `kept-${randomUUID().slice(0, 6)}`);
      await mailer().sendMail({
        from: "a@example.org",
        to: inbox.body.full_address,
        subject: "with a file",
        text: "x",
        attachments: [{ filename: "report.txt", content: "secret bytes" }],
      });
      const files = path.join(config.storage.local_path, inbox.body.id);
      expect(existsSync(files)).toBe(true);
      expect(
        await rows("SELECT a.id FROM attachments a JOIN emails e ON e.id = a.email_id WHERE e.inbox_id = $1", [inbox.body.id]),
      ).toHaveLength(1);

      const event = newEvent("team.deleted", { org_id: a.org_id, team_id: a.team_id, data: { team_id: a.team_id } });
      await publishEvent(infra.js, ns, event);
      await waitFor(async () => (await rows("SELECT 1 FROM processed_events WHERE event_id = $1", [event.id])).length === 1, {
        what: "team.deleted handled",
      });
      expect(await inboxCount("team_id", a.team_id)).toBe(0);
      expect(await rows("SELECT id FROM emails WHERE inbox_id = $1", [inbox.body.id])).toEqual([]);
      expect(existsSync(files)).toBe(false);
      expect((await call("GET", `/inboxes/${inbox.body.id}`, { actor: owner })).status).toBe(404);
      await expect(
        mailer().sendMail({ from: "a@example.org", to: inbox.body.full_address, subject: "late", text: "x" }),
      ).rejects.toMatchObject({
        responseCode: 550,
      });
      // tenancy would no longer answer for the assignment; even if a stale answer came, the team is gone
      expect((await create(a)).status).toBe(404);
      expect((await call("GET", `/inboxes/${kept.body.id}`, { actor: owner })).status).toBe(200);

      // a redelivery (same event id) changes nothing and is not an error
      // republished as a new message (a fresh message id, past the stream's dedup): the consumer gets it again
      await infra.js.publish(subjects(ns).event(event.type), JSON.stringify(event), { msgID: randomUUID() });
      const sentinel = newEvent("team.deleted", { org_id: a.org_id, team_id: randomUUID(), data: { team_id: randomUUID() } });
      await publishEvent(infra.js, ns, sentinel);
      await waitFor(async () => (await rows("SELECT 1 FROM processed_events WHERE event_id = $1", [sentinel.id])).length === 1, {
        what: "sentinel handled",
      });
      expect(await inboxCount("team_id", other.team_id)).toBe(1);
    });

    it("when an org with more inboxes than one batch is deleted, then all of them go, in several transactions, and other orgs keep theirs", async () => {
      const a = team();
      const b = team({ orgId: a.org_id });
      const stranger = team();
      await bulkInboxes(a, REMOVAL_BATCH + 30);
      await bulkInboxes(b, REMOVAL_BATCH + 20);
      const strangers = await create(stranger);
      const seen: string[] = [];
      const sub = infra.nc.subscribe(`${ns}.events.inbox.deleted`, {
        callback: (_e, msg) => {
          seen.push(msg.json<{ data: { inbox_id: string } }>().data.inbox_id);
        },
      });
      const event = newEvent("org.deleted", {
        org_id: a.org_id,
        team_id: null,
        data: { org_id: a.org_id, team_ids: [a.team_id, b.team_id] },
      });
      await publishEvent(infra.js, ns, event);
      await waitFor(async () => (await rows("SELECT 1 FROM processed_events WHERE event_id = $1", [event.id])).length === 1, {
        what: "org.deleted handled",
      });
      expect(await inboxCount("org_id", a.org_id)).toBe(0);
      expect((await call("GET", `/inboxes/${strangers.body.id}`, { actor: owner })).status).toBe(200);
      expect(await rows("SELECT kind FROM removed_tenants WHERE id = $1", [a.org_id])).toEqual([{ kind: "org" }]);
      // every removed inbox was announced (realtime closes its sockets)
      await waitFor(() => seen.length >= 2 * REMOVAL_BATCH + 50, { what: "inbox.deleted events" });
      sub.unsubscribe();
      expect((await create(b)).status).toBe(404);
    });
  });

  describe("team.transferred", () => {
    it("when a team moves to another org, then its inboxes are filed under the new org and still readable by their id", async () => {
      const a = team();
      const inbox = await create(a);
      const toOrg = randomUUID();
      const event = newEvent("team.transferred", {
        org_id: a.org_id,
        team_id: a.team_id,
        data: { team_id: a.team_id, from_org_id: a.org_id, to_org_id: toOrg },
      });
      await publishEvent(infra.js, ns, event);
      await waitFor(async () => (await rows("SELECT org_id FROM inboxes WHERE id = $1", [inbox.body.id]))[0]?.org_id === toOrg, {
        what: "inbox re-filed",
      });
      expect(await t.service.deps.data.repos.inboxes.get({ orgId: toOrg, teamId: a.team_id }, inbox.body.id)).toMatchObject({
        id: inbox.body.id,
        org_id: toOrg,
      });
      expect(await t.service.deps.data.repos.inboxes.get({ orgId: a.org_id, teamId: a.team_id }, inbox.body.id)).toBeNull();
    });
  });
});
