import { randomUUID } from "node:crypto";
import nodemailer from "nodemailer";
import { EventType, subjects } from "@burnbox/contracts";
import { startInfra, type Infra } from "@burnbox/service-kit/runtime";
import { cuttableRelay, LogCapture, makeActor, testInfra, waitFor, type TestService } from "@burnbox/test-kit";
import { startIntake, type RunningIntake, type RunningService } from "../src/app";
import type { InboxConfig } from "../src/config";
import { serveTenancyStandIn } from "./tenancy-stand-in";
import { MIGRATIONS_DIR, startInboxTestService } from "./inbox-test-service";

const DOMAIN = "mail.wait-reconnect.example";

interface WaitAnswer {
  data: Array<{ id: string; subject: string }>;
  matched: number;
  timed_out: boolean;
}

/** Wakes ride core NATS, which keeps nothing for a subscriber that is away: a reconnect re-reads the store for every held wait. */
describe("a held wait across a NATS reconnect of its inbox service", () => {
  let relay: Awaited<ReturnType<typeof cuttableRelay>>;
  let t: TestService<InboxConfig, RunningService>;
  let intakeInfra: Infra;
  let intake: RunningIntake;
  let stops: Array<{ stop(): Promise<void> }> = [];
  const statuses: string[] = [];
  const owner = makeActor();
  const orgId = randomUUID();
  const teamId = randomUUID();
  const assignmentId = randomUUID();

  beforeAll(async () => {
    relay = await cuttableRelay(new URL(testInfra.natsUrl));
    t = await startInboxTestService("waitreconnect", { overrides: () => ({ nats: { url: relay.url } }) });
    void (async () => {
      for await (const s of t.infra.nc.status()) statuses.push(s.type);
    })();
    // the intake (and tenancy's stand-in) on a connection of their own, straight to the server: they stay up
    const direct = { ...t.config, nats: { ...t.config.nats, url: testInfra.natsUrl } };
    intakeInfra = await startInfra({
      config: direct,
      database: { url: t.dbUrl, migrationsDir: MIGRATIONS_DIR },
      logDestination: new LogCapture(),
    });
    stops = serveTenancyStandIn(intakeInfra, t.ns, { assignmentId, orgId, teamId, domain: DOMAIN });
    intake = await startIntake(direct, intakeInfra);
  });

  afterAll(async () => {
    relay?.restore();
    await intake?.stop();
    await Promise.all(stops.map((s) => s.stop()));
    await intakeInfra?.close();
    await t?.stop();
    await relay?.close();
  });

  it("when a mail is stored while the connection is down (its wake lost), then after the reconnect the wait answers with it", async () => {
    const created = await t.call<{ id: string; full_address: string }>("POST", "/inboxes", {
      actor: owner,
      body: { domain_assignment_id: assignmentId },
    });
    expect(created.status).toBe(201);
    const inbox = created.body;
    const waiting = t.call<WaitAnswer>("GET", `/inboxes/${inbox.id}/emails/wait?subject=during&timeout=20s`, { actor: owner });
    await waitFor(() => t.service.waits.size === 1 || undefined, { what: "the wait held" });

    // the wake goes out (on the intake's connection) while the inbox service's connection is down
    const published: string[] = [];
    const sub = intakeInfra.nc.subscribe(subjects(t.ns).live(EventType.emailReceived, inbox.id), {
      callback: (_err, msg) => {
        published.push(String(msg.json<{ data?: { inbox_id?: string } }>().data?.inbox_id));
      },
    });
    await intakeInfra.nc.flush();
    const before = statuses.length;
    relay.cut();
    await waitFor(() => statuses.slice(before).includes("disconnect") || undefined, { what: "the inbox service disconnected" });
    const sent = await nodemailer
      .createTransport({ host: "127.0.0.1", port: intake.smtpPort, secure: false, ignoreTLS: true })
      .sendMail({ from: "a@example.org", to: inbox.full_address, subject: "sent during the outage", text: "hello" });
    expect(sent.response).toMatch(/^250/);
    await waitFor(() => published.includes(inbox.id) || undefined, { what: "the email.received wake published" });
    sub.unsubscribe();
    expect(t.service.waits.size).toBe(1); // the wake did not reach it

    relay.restore();
    const r = await waiting;
    expect(statuses.slice(before)).toContain("reconnect");
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ matched: 1, timed_out: false, data: [{ subject: "sent during the outage" }] });
    expect(t.service.waits.size).toBe(0);
  });
});
