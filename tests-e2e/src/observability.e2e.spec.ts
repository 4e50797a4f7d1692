import { randomBytes } from "node:crypto";
import { waitFor } from "@burnbox/test-kit";
import { apiClient, openSocket, sendMail } from "./clients";
import { SharedSystem } from "./shared-system";
import type { ProcessName } from "./system";
import { alias, createHook, Receiver } from "./webhook-kit";
import { createInbox, newClientIp, registerUser, roomInWindow, teamWithDomain } from "./world";

/**
 * What an operator sees: each process's /metrics (on its own port, as a Prometheus scrape reads
 * it) moves with the traffic the public ports carry, and every request leaves one access-log line
 * without bodies or credentials.
 */
describe("observability of the running system", () => {
  const system = SharedSystem.attach();
  const api = apiClient(system.gatewayUrl);

  /**
   * The sum of a metric's samples whose labels include `labels`, as /metrics of `proc` shows it now
   * (of every replica of `proc`, when the run has two: the work may fall to either).
   */
  const metric = async (proc: ProcessName, name: string, labels: Record<string, string> = {}): Promise<number> => {
    const texts = await Promise.all(
      system.portsOfEverySet.map(async (ports) => {
        const res = await fetch(`http://127.0.0.1:${ports[proc]}/metrics`);
        expect(res.status).toBe(200);
        return res.text();
      }),
    );
    const text = texts.join("\n");
    let sum = 0;
    for (const line of text.split("\n")) {
      const m = /^([a-z_:]+)(?:\{(.*)\})? ([-+0-9.eE]+|NaN)$/.exec(line);
      if (!m || m[1] !== name) continue;
      const have = Object.fromEntries([...(m[2] ?? "").matchAll(/([a-z_]+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
      if (Object.entries(labels).every(([k, v]) => have[k] === v)) sum += Number(m[3]);
    }
    return sum;
  };

  it("when mail is accepted and refused and its webhook delivered, then SMTP replies, outbox publishes, consumer and webhook metrics move", async () => {
    const world = await teamWithDomain(api);
    const rx = await Receiver.start();
    try {
      const hook = await createHook(api, world, rx.url, ["email.received"]);
      const inbox = await createInbox(api, world.owner.token, world.assignmentId, alias("obs"));
      const durable = "webhook-dispatcher-email_received";
      const rcpt550 = await metric("inbox-smtp", "burnbox_smtp_replies_total", { command: "rcpt", code: "550" });
      const data250 = await metric("inbox-smtp", "burnbox_smtp_replies_total", { command: "data", code: "250" });
      const published = await metric("inbox-smtp", "burnbox_outbox_published_total");
      const lagCount = await metric("inbox-smtp", "burnbox_outbox_publish_lag_seconds_count");
      const processed = await metric("webhook-dispatcher", "burnbox_consumer_messages_total", { durable, outcome: "processed" });
      const success = await metric("webhook-dispatcher", "burnbox_webhook_attempts_total", { outcome: "success" });
      const latencyCount = await metric("webhook-dispatcher", "burnbox_webhook_attempt_duration_seconds_count", { outcome: "success" });

      const refused = await sendMail(system.ports.smtp, {
        from: "sender@example.org",
        to: `nobody-${randomBytes(4).toString("hex")}@${world.domainName}`,
        subject: "x",
        text: "x",
      });
      expect(refused.rcpt.code).toBe(550);
      const sent = await sendMail(system.ports.smtp, { from: "sender@example.org", to: inbox.full_address, subject: "Obs", text: "hi" });
      expect(sent.data?.code).toBe(250);
      await waitFor(() => rx.deliveries(hook.secret).find((d) => d.event === "email.received"), { what: "the delivery" });

      // At least one more: identity sends account mail (this test's own registration included) to the
      // same intake in the background, and a verification mail to an @example.test user is refused at
      // RCPT whenever it happens to arrive, possibly inside this window. Were refusals not counted, the
      // counter would not move at all and this would still fail.
      expect(await metric("inbox-smtp", "burnbox_smtp_replies_total", { command: "rcpt", code: "550" })).toBeGreaterThanOrEqual(
        rcpt550 + 1,
      );
      expect(await metric("inbox-smtp", "burnbox_smtp_replies_total", { command: "data", code: "250" })).toBeGreaterThanOrEqual(
        data250 + 1,
      );
      expect(await metric("inbox-smtp", "burnbox_outbox_published_total")).toBeGreaterThan(published);
      expect(await metric("inbox-smtp", "burnbox_outbox_publish_lag_seconds_count")).toBeGreaterThan(lagCount);
      expect(await metric("inbox-smtp", "burnbox_outbox_backlog")).toBeGreaterThanOrEqual(0);
      await waitFor(async () => (await metric("webhook-dispatcher", "burnbox_webhook_attempts_total", { outcome: "success" })) > success, {
        what: "the attempt counted",
      });
      expect(await metric("webhook-dispatcher", "burnbox_consumer_messages_total", { durable, outcome: "processed" })).toBeGreaterThan(
        processed,
      );
      expect(await metric("webhook-dispatcher", "burnbox_webhook_attempt_duration_seconds_count", { outcome: "success" })).toBeGreaterThan(
        latencyCount,
      );
    } finally {
      await rx.close();
    }
  });

  it("when a team is set up and an inbox created, then identity's and tenancy's outboxes publish and tenancy's consumer counts the inbox", async () => {
    const identityPublished = await metric("identity", "burnbox_outbox_published_total");
    const tenancyPublished = await metric("tenancy", "burnbox_outbox_published_total");
    const processed = await metric("tenancy", "burnbox_consumer_messages_total", { outcome: "processed" });
    const world = await teamWithDomain(api);
    await createInbox(api, world.owner.token, world.assignmentId, alias("count"));
    await waitFor(async () => (await metric("identity", "burnbox_outbox_published_total")) > identityPublished, {
      what: "identity's publish",
    });
    await waitFor(async () => (await metric("tenancy", "burnbox_outbox_published_total")) > tenancyPublished, {
      what: "tenancy's publish",
    });
    await waitFor(async () => (await metric("tenancy", "burnbox_consumer_messages_total", { outcome: "processed" })) > processed, {
      what: "tenancy's consumer",
    });
  });

  it("when a WebSocket opens and closes, then the realtime gateway's open-socket gauge rises and falls", async () => {
    const world = await teamWithDomain(api);
    const inbox = await createInbox(api, world.owner.token, world.assignmentId, alias("ws"));
    const ticket = await api<{ ticket: string }>("POST", "/ws/ticket", { token: world.owner.token });
    expect(ticket.status).toBe(201);
    const before = await metric("realtime-gateway", "burnbox_websockets_open");
    const socket = await openSocket(`${system.wsUrl}/api/v1/ws/inboxes/${inbox.id}?ticket=${ticket.body.ticket}`);
    try {
      await waitFor(async () => (await metric("realtime-gateway", "burnbox_websockets_open")) === before + 1, { what: "one more socket" });
    } finally {
      socket.ws.close();
    }
    await waitFor(async () => (await metric("realtime-gateway", "burnbox_websockets_open")) === before, { what: "the socket gone" });
  });

  it("when a client goes over the login limit, then the gateway counts the refusal", async () => {
    const ip = newClientIp();
    const before = await metric("api-gateway", "burnbox_rate_limit_refusals_total", { bucket: "ip" });
    let status = 0;
    await roomInWindow(60_000, 10_000); // the login limit's minute does not roll over half way (seen once in CI)
    for (let i = 0; i < 20 && status !== 429; i++) {
      const res = await api("POST", "/auth/login", {
        body: { email: `nobody-${i}@example.test`, password: "wrong-password-1" },
        headers: { "x-forwarded-for": ip },
      });
      status = res.status;
    }
    expect(status).toBe(429);
    expect(await metric("api-gateway", "burnbox_rate_limit_refusals_total", { bucket: "ip" })).toBe(before + 1);
  });

  it("when time passes, then the inbox's cleanup worker runs are counted", async () => {
    const labels = { task: "inbox-cleanup", outcome: "ok" };
    const before = await metric("inbox", "burnbox_worker_runs_total", labels);
    await waitFor(async () => (await metric("inbox", "burnbox_worker_runs_total", labels)) > before, { what: "a worker run" });
    expect(await metric("inbox", "burnbox_worker_run_duration_seconds_count", { task: "inbox-cleanup" })).toBeGreaterThan(0);
  });

  it("when a request passes the gateway, then the gateway and the service each log one access line with its request id, and neither body nor token", async () => {
    const user = await registerUser(api, "obs");
    const requestId = `obs-${randomBytes(6).toString("hex")}`;
    const marker = `Org-${randomBytes(6).toString("hex")}`;
    const res = await api<{ id: string }>("POST", "/orgs", {
      token: user.token,
      body: { name: marker },
      headers: { "x-request-id": requestId },
    });
    expect(res.status).toBe(201);

    const lines = await waitFor(
      async () => {
        const mine = (await system.allLogs())
          .split("\n")
          .filter((l) => l.includes(requestId))
          .map((l) => JSON.parse(l.slice(l.indexOf("{"))) as Record<string, unknown>)
          .filter((l) => l.msg === "request");
        return mine.length >= 2 ? mine : null;
      },
      { what: "the access lines" },
    );
    expect(new Set(lines.map((l) => l.service))).toEqual(new Set(["api-gateway", "tenancy"]));
    for (const line of lines) {
      expect(line).toMatchObject({ request_id: requestId, method: "POST", status: 201 });
      expect(typeof line.duration_ms).toBe("number");
    }
    expect(lines.find((l) => l.service === "tenancy")?.route).toBe("/api/v1/orgs");
    const all = await system.allLogs();
    expect(all).not.toContain(marker);
    expect(all).not.toContain(user.token);
  });
});
