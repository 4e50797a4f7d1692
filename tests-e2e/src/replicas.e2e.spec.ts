import { randomBytes } from "node:crypto";
import { waitFor } from "@burnbox/test-kit";
import { apiClient, openSocket, sendMail, SmtpSession } from "./clients";
import { SharedSystem } from "./shared-system";
import { Receiver } from "./webhook-kit";
import { createInbox, registerUser, teamWithDomain } from "./world";

/**
 * Two replicas of every service on one machine, as a deployment with replicas: 2 runs them. The
 * shared system gets a second process of each service (gateway and SMTP intake included) in its
 * namespace; the tests speak to both sets only through their public ports and check what must
 * hold whichever replica handles a request, a message or an event.
 */
describe("two replicas of every service", () => {
  const system = SharedSystem.attach();
  const a = apiClient(system.gatewayUrl);
  let b: ReturnType<typeof apiClient>;
  let ports: Awaited<ReturnType<SharedSystem["replicaPorts"]>>;

  beforeAll(async () => {
    ports = await system.replicaPorts();
    b = apiClient(`http://127.0.0.1:${ports["api-gateway"]}`);
  });

  // the other files count on one process of each service (restarts stop "the" dispatcher); with two
  // replicas for the whole run (npm run test:replicas) the second set stays and this is a no-op
  afterAll(() => system.stopReplicas());

  /** Polls (every 20 ms, letting sockets and receivers run) until `check` holds, for at most `ms`. */
  const within = (ms: number, what: string, check: () => Promise<boolean> | boolean) =>
    waitFor(async () => (await check()) || undefined, { timeoutMs: ms, intervalMs: 20, what });

  it("what one replica writes the other reads: a token, an inbox and the mail the other intake took", async () => {
    const world = await teamWithDomain(a);
    const inbox = await createInbox(a, world.owner.token, world.assignmentId, "replicas");
    expect((await b("GET", `/inboxes/${inbox.id}`, { token: world.owner.token })).status).toBe(200);

    const subject = `via replica ${randomBytes(3).toString("hex")}`;
    const sent = await sendMail(ports.smtp, { from: "sender@example.org", to: inbox.full_address, subject, text: "hello" });
    expect(sent.data?.code).toBe(250);
    await within(5000, "the mail listed through the first gateway", async () => {
      const list = await a<{ data: Array<{ subject: string }> }>("GET", `/inboxes/${inbox.id}/emails`, { token: world.owner.token });
      return list.body.data.some((e) => e.subject === subject);
    });
  });

  it("a socket on one realtime replica gets the mail the other intake took; its creator gets exactly one notification", async () => {
    const world = await teamWithDomain(a);
    const inbox = await createInbox(a, world.owner.token, world.assignmentId, "socket");
    const ticket = await a<{ ticket: string }>("POST", "/ws/ticket", { token: world.owner.token });
    const socket = await openSocket(`${system.wsUrl}/api/v1/ws/inboxes/${inbox.id}?ticket=${ticket.body.ticket}`);
    try {
      const subject = `fan-out ${randomBytes(3).toString("hex")}`;
      expect((await sendMail(ports.smtp, { from: "s@example.org", to: inbox.full_address, subject, text: "x" })).data?.code).toBe(250);
      await within(5000, "the frame", () => socket.frames.some((f) => f.type === "email.received" && f.data.subject === subject));

      // both realtime replicas consume email.received; the notification is stored once
      const mine = async (api: typeof a) =>
        (
          await api<{ data: Array<{ type: string; data: { subject?: string } }> }>("GET", "/notifications", { token: world.owner.token })
        ).body.data.filter((n) => n.type === "email.received" && n.data.subject === subject);
      await within(5000, "the notification", async () => (await mine(b)).length > 0);
      expect(await mine(a)).toHaveLength(1);
      expect(await mine(b)).toHaveLength(1);
    } finally {
      socket.ws.close();
    }
  });

  it("with two dispatchers, each event is delivered once", async () => {
    const receiver = await Receiver.start();
    try {
      const world = await teamWithDomain(a);
      const hook = await b<{ id: string; secret: string }>("POST", `/orgs/${world.orgId}/teams/${world.teamId}/webhooks`, {
        token: world.owner.token,
        body: { url: receiver.url, events: ["email.received"] },
      });
      expect(hook.status).toBe(201);
      const inbox = await createInbox(a, world.owner.token, world.assignmentId, "hooked");
      for (let i = 0; i < 6; i++) {
        const port = i % 2 === 0 ? system.ports.smtp : ports.smtp;
        expect((await sendMail(port, { from: "s@example.org", to: inbox.full_address, subject: `m${i}`, text: "x" })).data?.code).toBe(250);
      }
      await within(10_000, "six deliveries", () => receiver.hits.length >= 6);
      const subjects = receiver.deliveries(hook.body.secret).map((d) => (d.body.data as { subject: string }).subject);
      expect(subjects.sort()).toEqual(["m0", "m1", "m2", "m3", "m4", "m5"]);
    } finally {
      await receiver.close();
    }
  });

  // only when both gateways name both sets' services (npm run test:replicas); a replica set started
  // by this file has a gateway of its own in front of its own services
  (system.replicas === 2 ? it : it.skip)(
    "with one tenancy replica down, both gateways answer every request through the other (a refusing replica is skipped)",
    async () => {
      const world = await teamWithDomain(a);
      try {
        await system.stopReplicaProcess("tenancy");
        // round-robin sends every other request to the stopped replica first
        for (let i = 0; i < 4; i++) {
          for (const api of [a, b]) {
            const res = await api<{ id: string }>("GET", `/orgs/${world.orgId}`, { token: world.owner.token });
            expect([res.status, res.body.id]).toEqual([200, world.orgId]);
          }
        }
        const created = await b<{ id: string }>("POST", "/orgs", { token: world.owner.token, body: { name: "Made once" } });
        expect(created.status).toBe(201);
        const again = await a<{ id: string }>("POST", "/orgs", { token: world.owner.token, body: { name: "Made once too" } });
        expect(again.status).toBe(201);
        const mine = await a<{ data: Array<{ name: string }> }>("GET", "/orgs", { token: world.owner.token });
        expect(
          mine.body.data
            .filter((o) => o.name.startsWith("Made once"))
            .map((o) => o.name)
            .sort(),
        ).toEqual(["Made once", "Made once too"]);
      } finally {
        await system.startReplicaProcess("tenancy");
      }
    },
  );

  it("a team's deletion through one gateway refuses its API keys on both gateways from the moment it answered", async () => {
    const world = await teamWithDomain(a);
    const key = await a<{ raw_key: string }>("POST", `/orgs/${world.orgId}/teams/${world.teamId}/api-keys`, {
      token: world.owner.token,
      body: { name: "ci", scopes: ["team.inboxes.view"] },
    });
    expect(key.status).toBe(201);
    // both gateways now hold the key in memory
    for (const api of [a, b, a, b]) expect((await api("GET", "/inboxes", { token: key.body.raw_key })).status).toBe(200);
    expect((await a("DELETE", `/orgs/${world.orgId}/teams/${world.teamId}`, { token: world.owner.token })).status).toBe(204);
    const answers = await Promise.all([b, a].map((api) => api("GET", "/inboxes", { token: key.body.raw_key })));
    expect(answers.map((r) => r.status)).toEqual([401, 401]);
  });

  it("an access change made through one replica holds on the other within 1 s", async () => {
    const world = await teamWithDomain(a);
    const user = await registerUser(a, "member");
    expect(
      (await a("POST", `/orgs/${world.orgId}/members/add`, { token: world.owner.token, body: { user_id: user.userId, role: "member" } }))
        .status,
    ).toBe(201);
    expect(
      (
        await a("POST", `/orgs/${world.orgId}/teams/${world.teamId}/members`, {
          token: world.owner.token,
          body: { user_id: user.userId, role: "member" },
        })
      ).status,
    ).toBe(201);
    const inbox = await createInbox(a, world.owner.token, world.assignmentId, "shared");
    // both inbox replicas now hold the member's grant
    for (const api of [a, b, a, b]) expect((await api("GET", `/inboxes/${inbox.id}`, { token: user.token })).status).toBe(200);

    const removed = await a("DELETE", `/orgs/${world.orgId}/teams/${world.teamId}/members/${user.userId}`, { token: world.owner.token });
    expect(removed.status).toBe(204);
    await within(1000, "both replicas denying", async () => {
      const answers = await Promise.all([a, b].map((api) => api("GET", `/inboxes/${inbox.id}`, { token: user.token })));
      return answers.every((r) => r.status === 404);
    });
  });
  it("an SMTP behaviour holds on both intakes: a greylisted message's attempts are counted across them, and a PATCH through one gateway applies on both from its answer", async () => {
    const world = await teamWithDomain(a);
    const created = await b<{ id: string; full_address: string }>("POST", "/inboxes", {
      token: world.owner.token,
      body: { domain_assignment_id: world.assignmentId, smtp_behaviour: { defer_first: 2 } },
    });
    expect(created.status).toBe(201);
    const inbox = created.body;
    const messageId = `<replicas-${randomBytes(4).toString("hex")}@sender.test>`;
    /** One attempt of the same message on a new connection to `port`: the final reply's code. */
    const attempt = async (port: number) => {
      const s = await SmtpSession.open(port);
      try {
        expect((await s.command("MAIL FROM:<queue@sender.test>")).code).toBe(250);
        const rcpt = await s.command(`RCPT TO:<${inbox.full_address}>`);
        if (rcpt.code !== 250) return rcpt.code;
        const message = [
          `From: queue@sender.test`,
          `To: ${inbox.full_address}`,
          "Subject: twice greylisted",
          `Message-ID: ${messageId}`,
          "",
          "body",
        ];
        return (await s.data(message.join("\r\n"))).code;
      } finally {
        await s.quit();
      }
    };
    expect(await attempt(system.ports.smtp)).toBe(451);
    expect(await attempt(ports.smtp)).toBe(451);
    expect(await attempt(system.ports.smtp)).toBe(250);
    expect(await attempt(ports.smtp)).toBe(250);

    const patched = await a("PATCH", `/inboxes/${inbox.id}`, {
      token: world.owner.token,
      body: { smtp_behaviour: { reject_rcpt: { code: 550, message: "5.7.1 Closed for the test" } } },
    });
    expect(patched.status).toBe(200);
    expect(await Promise.all([ports.smtp, system.ports.smtp].map(attempt))).toEqual([550, 550]);
    const log = await b<{ data: Array<{ code: number }> }>("GET", `/inboxes/${inbox.id}/smtp-log`, { token: world.owner.token });
    expect(log.body.data.map((e) => e.code)).toEqual([550, 550, 451, 451]);
  });

  it("waits held on both inbox replicas wake within 1 s for mail either intake took", async () => {
    const world = await teamWithDomain(a);
    const inbox = await createInbox(a, world.owner.token, world.assignmentId, "wait");
    for (const [label, smtpPort] of [
      ["second intake", ports.smtp],
      ["first intake", system.ports.smtp],
    ] as const) {
      const subject = `wake via ${label} ${randomBytes(3).toString("hex")}`;
      // the gateways take turns over both inbox replicas: four waits are held on both
      const waits = [a, b, a, b].map((api) =>
        api<{ matched: number; timed_out: boolean }>(
          "GET",
          `/inboxes/${inbox.id}/emails/wait?subject=${encodeURIComponent(subject)}&timeout=20s`,
          { token: world.owner.token },
        ).then((r) => ({ r, at: Date.now() })),
      );
      const sent = await sendMail(smtpPort, { from: "s@example.org", to: inbox.full_address, subject, text: "wake up" });
      expect(sent.data?.code).toBe(250);
      const accepted = Date.now();
      for (const { r, at } of await Promise.all(waits)) {
        expect(r.status).toBe(200);
        expect(r.body).toMatchObject({ matched: 1, timed_out: false });
        expect(at - accepted).toBeLessThan(1000);
      }
    }
  });
});
