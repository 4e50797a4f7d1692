/**
 * SMTP accept -> signed webhook received, through the whole running system.
 * 1. one message at a time (unloaded latency);
 * 2. a steady 100 messages per second for 10 s (latency under load, deliveries per second).
 * Run: pnpm --filter @burnbox/bench smtp-to-webhook   (Postgres, Redis and NATS must be up)
 */
import { randomBytes } from "node:crypto";
import { apiClient, buildMessage, createInbox, SmtpSession, System, teamWithDomain, WebhookReceiver } from "@burnbox/tests-e2e";
import { machine, summary } from "./stats";

const RATE = Number(process.env.BENCH_RATE ?? 100);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 4;

async function main(): Promise<void> {
  // the load comes from one address over few connections: lift the intake's per-IP and per-connection message limits
  const system = await System.start({
    all: { BB_LOG_LEVEL: "warn" },
    "inbox-smtp": { BB_SMTP_MAX_MESSAGES_PER_IP_PER_MINUTE: "1000000", BB_SMTP_MAX_MESSAGES_PER_CONNECTION: "1000000" },
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
    const sessions = await Promise.all(Array.from({ length: CONNECTIONS }, () => SmtpSession.open(system.ports.smtp)));

    const send = async (session: SmtpSession, subject: string): Promise<number> => {
      await session.command("MAIL FROM:<bench@example.org>");
      await session.command(`RCPT TO:<${inbox.full_address}>`);
      const reply = await session.data(buildMessage({ from: "bench@example.org", to: inbox.full_address, subject, text: "bench" }));
      if (reply.code !== 250) throw new Error(`DATA answered ${reply.code}`);
      return Date.now();
    };
    const waitArrived = async (subjects: string[], timeoutMs: number) => {
      const deadline = Date.now() + timeoutMs;
      while (subjects.some((s) => !arrived.has(s)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    };

    // Warm-up and unloaded latency.
    const single: number[] = [];
    for (let i = 0; i < 30; i++) {
      const subject = `single-${i}-${randomBytes(3).toString("hex")}`;
      const accepted = await send(sessions[0] as SmtpSession, subject);
      await waitArrived([subject], 10_000);
      const at = arrived.get(subject);
      if (at !== undefined && i >= 5) single.push(at - accepted);
    }

    // Steady load.
    const accepted = new Map<string, number>();
    const total = RATE * SECONDS;
    const start = Date.now();
    const queues = sessions.map(() => Promise.resolve());
    for (let i = 0; i < total; i++) {
      const due = start + (i * 1000) / RATE;
      const wait = due - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const subject = `load-${i}-${randomBytes(3).toString("hex")}`;
      const k = i % CONNECTIONS;
      queues[k] = (queues[k] as Promise<void>).then(async () => {
        accepted.set(subject, await send(sessions[k] as SmtpSession, subject));
      });
    }
    await Promise.all(queues);
    const sendSeconds = (Date.now() - start) / 1000;
    await waitArrived([...accepted.keys()], 60_000);
    const lastArrival = Math.max(...[...accepted.keys()].map((s) => arrived.get(s) ?? 0));
    const loaded = [...accepted.entries()].filter(([s]) => arrived.has(s)).map(([s, t]) => (arrived.get(s) as number) - t);

    process.stdout.write(`machine: ${machine()}\n`);
    process.stdout.write(`${summary("unloaded SMTP accept -> webhook received", single)}\n`);
    process.stdout.write(
      `offered ${RATE} msg/s for ${SECONDS}s: sent ${accepted.size} in ${sendSeconds.toFixed(1)}s, delivered ${loaded.length}\n`,
    );
    process.stdout.write(`${summary(`at ${RATE} msg/s SMTP accept -> webhook received`, loaded)}\n`);
    process.stdout.write(`deliveries per second: ${(loaded.length / ((lastArrival - start) / 1000)).toFixed(1)}\n`);
    await Promise.all(sessions.map((s) => s.quit()));
  } finally {
    await receiver.close();
    await system.stop();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${String(err instanceof Error ? err.stack : err)}\n`);
  process.exit(1);
});
