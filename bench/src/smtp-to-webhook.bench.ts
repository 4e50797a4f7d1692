/**
 * SMTP accept -> signed webhook received, and -> WebSocket frame on the inbox's stream (one socket
 * opened with a ticket through the gateway's port, as a browser would), through the whole running
 * system:
 * 1. one message at a time (unloaded latency);
 * 2. a steady 100 messages per second for 10 s (latency under load, deliveries per second);
 * 3. the bare baseline of the same protocols, in the same run and at the same rate: a bare
 *    smtp-server in a process of its own that answers 250 and then POSTs a signed JSON body to the
 *    same receiver and sends a frame on a bare `ws` server; the system's p99 against it.
 * Every process's CPU milliseconds per message under the steady load are printed too.
 * Run: pnpm --filter @burnbox/bench smtp-to-webhook   (Postgres, Redis and NATS must be up)
 */
import { randomBytes } from "node:crypto";
import { Client } from "pg";
import { WebSocket } from "ws";
import { testDatabaseUrl } from "@burnbox/test-kit";
import { apiClient, buildMessage, createInbox, SmtpSession, System, teamWithDomain, WebhookReceiver } from "@burnbox/tests-e2e";
import { cpuPerUnit, machine, percentile, spawnBare, summary } from "./stats";

const RATE = Number(process.env.BENCH_RATE ?? 100);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 4;

/**
 * The bare relay in a child process: SMTP in (smtp-server, no TLS), then, once 250 is answered,
 * the message's subject as a signed JSON POST to `receiverUrl` and as a frame to every socket of
 * a bare ws server. Prints its SMTP and WebSocket ports.
 */
async function bareRelay(receiverUrl: string): Promise<{ smtpPort: number; wsPort: number; stop(): void }> {
  const code = `
    const { createHmac } = require("node:crypto");
    const { SMTPServer } = require(${JSON.stringify(require.resolve("smtp-server"))});
    const { WebSocketServer } = require(${JSON.stringify(require.resolve("ws"))});
    const wss = new WebSocketServer({ port: 0, host: "127.0.0.1" });
    const smtp = new SMTPServer({
      authOptional: true, disabledCommands: ["STARTTLS"], logger: false,
      onData(stream, _session, callback) {
        const chunks = [];
        stream.on("data", (c) => chunks.push(c));
        stream.on("end", () => {
          callback();
          const subject = (/^Subject: (.*)$/im.exec(Buffer.concat(chunks).toString("utf8")) || [])[1] || "";
          const body = JSON.stringify({ event: "email.received", data: { subject } });
          const signature = createHmac("sha256", "bare-secret").update(body).digest("hex");
          fetch(${JSON.stringify(receiverUrl)}, { method: "POST", headers: { "content-type": "application/json", "x-service-signature": signature }, body })
            .then((r) => r.arrayBuffer()).catch(() => undefined);
          const frame = JSON.stringify({ type: "email.received", data: { subject } });
          for (const ws of wss.clients) ws.send(frame);
        });
      },
    });
    wss.on("listening", () => smtp.listen(0, "127.0.0.1", () =>
      process.stdout.write(smtp.server.address().port + " " + wss.address().port + "\\n")));`;
  const { ports, stop } = await spawnBare(code);
  return { smtpPort: ports[0] as number, wsPort: ports[1] as number, stop };
}

async function main(): Promise<void> {
  // the load comes from one address over few connections: lift the intake's per-IP and per-connection message limits
  const system = await System.start({
    all: { BB_LOG_LEVEL: "warn" },
    "inbox-smtp": { BB_SMTP_MAX_MESSAGES_PER_IP_PER_MINUTE: "1000000", BB_SMTP_MAX_MESSAGES_PER_CONNECTION: "1000000" },
    // webhook signing secrets are sealed at rest: no webhook without the services' key
    "webhook-dispatcher": { BB_ENCRYPTION_KEY: "5e".repeat(32) },
  });
  const receiver = await WebhookReceiver.start();
  const arrived = new Map<string, number>();
  const original = receiver.respond;
  receiver.respond = (n) => {
    const hook = receiver.received[n - 1];
    if (hook) {
      const body = JSON.parse(hook.raw.toString("utf8")) as { data: { subject: string } };
      arrived.set(body.data.subject, hook.at);
    }
    return original(n);
  };
  try {
    const api = apiClient(system.gatewayUrl);
    const world = await teamWithDomain(api);
    const hook = await api("POST", `/orgs/${world.orgId}/teams/${world.teamId}/webhooks`, {
      token: world.owner.token,
      body: { url: receiver.url, events: ["email.received"] },
    });
    if (hook.status !== 201) throw new Error(`webhook: ${hook.status}`);
    const inbox = await createInbox(api, world.owner.token, world.assignmentId, "bench");
    const framed = new Map<string, number>();
    /** A WebSocket that records when each email.received frame (by subject) arrived. */
    const listenOn = async (url: string) => {
      const ws = new WebSocket(url);
      ws.on("message", (raw: Buffer) => {
        const at = Date.now();
        const frame = JSON.parse(raw.toString("utf8")) as { type: string; data?: { subject?: string } };
        if (frame.type === "email.received" && frame.data?.subject) framed.set(frame.data.subject, at);
      });
      await new Promise<void>((resolve, reject) => {
        ws.once("open", () => resolve());
        ws.once("error", reject);
      });
      return ws;
    };
    const ticket = await api<{ ticket: string }>("POST", "/ws/ticket", { token: world.owner.token });
    if (ticket.status !== 201) throw new Error(`ticket: ${ticket.status}`);
    const socket = await listenOn(`${system.gatewayUrl.replace(/^http/, "ws")}/api/v1/ws/inboxes/${inbox.id}?ticket=${ticket.body.ticket}`);
    const sessions = await Promise.all(Array.from({ length: CONNECTIONS }, () => SmtpSession.open(system.ports.smtp)));

    const send = async (session: SmtpSession, subject: string, to = inbox.full_address): Promise<number> => {
      await session.command("MAIL FROM:<bench@example.org>");
      await session.command(`RCPT TO:<${to}>`);
      const reply = await session.data(buildMessage({ from: "bench@example.org", to, subject, text: "bench" }));
      if (reply.code !== 250) throw new Error(`DATA answered ${reply.code}`);
      return Date.now();
    };
    /** RATE messages a second for SECONDS over `over`'s sessions, each to `to`: when each was accepted. */
    const steady = async (over: SmtpSession[], to: string, prefix: string) => {
      const accepted = new Map<string, number>();
      const started = Date.now();
      const queues = over.map(() => Promise.resolve());
      for (let i = 0; i < RATE * SECONDS; i++) {
        const due = started + (i * 1000) / RATE;
        const wait = due - Date.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        const subject = `${prefix}-${i}-${randomBytes(3).toString("hex")}`;
        const k = i % over.length;
        queues[k] = (queues[k] as Promise<void>).then(async () => {
          accepted.set(subject, await send(over[k] as SmtpSession, subject, to));
        });
      }
      await Promise.all(queues);
      return { accepted, started, sendSeconds: (Date.now() - started) / 1000 };
    };
    const latencies = (accepted: Map<string, number>, at: Map<string, number>) =>
      [...accepted.entries()].filter(([s]) => at.has(s)).map(([s, t]) => (at.get(s) as number) - t);
    const waitArrived = async (subjects: string[], timeoutMs: number) => {
      const deadline = Date.now() + timeoutMs;
      while (subjects.some((s) => !arrived.has(s) || !framed.has(s)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    };

    // Warm-up and unloaded latency.
    const single: number[] = [];
    const singleFrames: number[] = [];
    for (let i = 0; i < 30; i++) {
      const subject = `single-${i}-${randomBytes(3).toString("hex")}`;
      const accepted = await send(sessions[0] as SmtpSession, subject);
      await waitArrived([subject], 10_000);
      const at = arrived.get(subject);
      const frameAt = framed.get(subject);
      if (at !== undefined && i >= 5) single.push(at - accepted);
      if (frameAt !== undefined && i >= 5) singleFrames.push(frameAt - accepted);
    }

    // The bare baseline at the same rate, the system idle meanwhile.
    const bare = await bareRelay(receiver.url);
    const bareSocket = await listenOn(`ws://127.0.0.1:${bare.wsPort}/`);
    const bareSessions = await Promise.all(Array.from({ length: CONNECTIONS }, () => SmtpSession.open(bare.smtpPort)));
    for (let i = 0; i < 20; i++) await send(bareSessions[0] as SmtpSession, `bare-warm-${i}`, "anyone@bare.test");
    const bareRun = await steady(bareSessions, "anyone@bare.test", "bare");
    await waitArrived([...bareRun.accepted.keys()], 30_000);
    const bareHooks = latencies(bareRun.accepted, arrived);
    const bareFrames = latencies(bareRun.accepted, framed);
    await Promise.all(bareSessions.map((s) => s.quit()));
    bareSocket.close();
    bare.stop();

    // Steady load.
    const total = RATE * SECONDS;
    const procs = ["inbox-smtp", "inbox", "webhook-dispatcher", "tenancy", "realtime-gateway", "api-gateway"] as const;
    const cpu = cpuPerUnit(Object.fromEntries(procs.map((p) => [p, system.pid(p)])));
    const { accepted, started: start, sendSeconds } = await steady(sessions, inbox.full_address, "load");
    await waitArrived([...accepted.keys()], 60_000);
    const perMessage = cpu(total);
    const lastArrival = Math.max(...[...accepted.keys()].map((s) => arrived.get(s) ?? 0));
    const loaded = latencies(accepted, arrived);
    const loadedFrames = latencies(accepted, framed);

    process.stdout.write(`machine: ${machine()}\n`);
    process.stdout.write(`${summary("unloaded SMTP accept -> webhook received", single)}\n`);
    process.stdout.write(`${summary("unloaded SMTP accept -> WebSocket frame", singleFrames)}\n`);
    process.stdout.write(
      `offered ${RATE} msg/s for ${SECONDS}s: sent ${accepted.size} in ${sendSeconds.toFixed(1)}s, delivered ${loaded.length}\n`,
    );
    process.stdout.write(`${summary(`at ${RATE} msg/s SMTP accept -> webhook received`, loaded)}\n`);
    process.stdout.write(`${summary(`at ${RATE} msg/s SMTP accept -> WebSocket frame`, loadedFrames)}\n`);
    process.stdout.write(`${summary(`bare relay at ${RATE} msg/s: SMTP accept -> webhook received`, bareHooks)}\n`);
    process.stdout.write(`${summary(`bare relay at ${RATE} msg/s: SMTP accept -> WebSocket frame`, bareFrames)}\n`);
    const p99 = (xs: number[]) => percentile(xs, 99);
    process.stdout.write(
      `p99 against the bare relay: webhook ${p99(loaded).toFixed(1)} ms vs ${p99(bareHooks).toFixed(1)} ms (+${(p99(loaded) - p99(bareHooks)).toFixed(1)} ms, ${(p99(loaded) / p99(bareHooks)).toFixed(1)}x), ` +
        `WebSocket frame ${p99(loadedFrames).toFixed(1)} ms vs ${p99(bareFrames).toFixed(1)} ms (+${(p99(loadedFrames) - p99(bareFrames)).toFixed(1)} ms, ${(p99(loadedFrames) / p99(bareFrames)).toFixed(1)}x)\n`,
    );
    process.stdout.write(`CPU ms per message under the steady load (time until the last webhook): ${perMessage}\n`);
    process.stdout.write(`deliveries per second: ${(loaded.length / ((lastArrival - start) / 1000)).toFixed(1)}\n`);
    // where a loaded message's time went, from the dispatcher's own rows: the email stored (the
    // event's received_at) -> its delivery scheduled -> the attempt's response -> the receiver
    const db = new Client({ connectionString: testDatabaseUrl(system.databaseName("webhook-dispatcher")) });
    await db.connect();
    const { rows } = await db.query<{ subject: string; received: Date; scheduled: Date; answered: Date }>(
      `SELECT d.body::jsonb #>> '{data,subject}' AS subject, (d.body::jsonb #>> '{data,received_at}')::timestamptz AS received,
         d.created_at AS scheduled, a.created_at AS answered
       FROM deliveries d JOIN delivery_attempts a ON a.delivery_id = d.id WHERE a.attempt = 1`,
    );
    await db.end();
    const hops = rows.filter((r) => accepted.has(r.subject) && arrived.has(r.subject));
    const ms = (f: (r: (typeof hops)[number]) => number) => hops.map(f);
    process.stdout.write(
      `${summary(
        "  email stored -> delivery scheduled",
        ms((r) => r.scheduled.getTime() - r.received.getTime()),
      )}\n`,
    );
    process.stdout.write(
      `${summary(
        "  scheduled -> attempt answered",
        ms((r) => r.answered.getTime() - r.scheduled.getTime()),
      )}\n`,
    );
    process.stdout.write(
      `${summary(
        "  answered -> receiver had it",
        ms((r) => (arrived.get(r.subject) as number) - r.answered.getTime()),
      )}\n`,
    );
    await Promise.all(sessions.map((s) => s.quit()));
    socket.close();
  } finally {
    await receiver.close();
    await system.stop();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${String(err instanceof Error ? err.stack : err)}\n`);
  process.exit(1);
});
