/**
 * Fault injection under SMTP load (issue: hardening). A system of its own, on a NATS and a Redis
 * this script starts (so restarting them disturbs nothing else on the machine), receives mail at a
 * steady rate while each service is killed with SIGKILL and restarted in turn, then NATS and
 * Redis are restarted. The load generator behaves like a real MTA: a message that did not get its
 * 250 is sent again. At the end it prints what was accepted (250), stored (listed by the API),
 * streamed (WebSocket frames), delivered (signed webhooks) and the duplicates, which must share
 * a delivery id. Exits non-zero when anything accepted is missing.
 * Run: pnpm build && pnpm --filter @burnbox/bench faults   (BENCH_MESSAGES, BENCH_RATE)
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { waitFor } from "@burnbox/test-kit";
import {
  System,
  WebhookReceiver,
  apiClient,
  createInbox,
  freePorts,
  openSocket,
  sendMail,
  teamWithDomain,
  type ProcessName,
} from "@burnbox/tests-e2e";
import { machine } from "./stats";

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 600);
const RATE = Number(process.env.BENCH_RATE ?? 30);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 4);
const KILLED: ProcessName[] = ["inbox-smtp", "webhook-dispatcher", "inbox", "tenancy", "identity", "api-gateway"];

/** A server binary the script owns: started, killed with SIGKILL, started again on the same port and data. */
class Owned {
  private child: ChildProcess | null = null;
  constructor(
    private readonly bin: string,
    private readonly args: string[],
  ) {}

  start(): void {
    this.child = spawn(this.bin, this.args, { stdio: "ignore" });
  }

  async restart(): Promise<void> {
    const child = this.child;
    if (child) {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGKILL");
      await exited;
    }
    this.start();
  }

  stop(): void {
    this.child?.kill("SIGKILL");
  }
}

async function main(): Promise<void> {
  const [natsPort, redisPort] = (await freePorts(2)) as [number, number];
  const nats = new Owned("nats-server", [
    "-a",
    "127.0.0.1",
    "-p",
    String(natsPort),
    "-js",
    "-sd",
    mkdtempSync(path.join(tmpdir(), "bb-nats-")),
  ]);
  const redis = new Owned("redis-server", ["--port", String(redisPort), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]);
  nats.start();
  redis.start();
  await new Promise((r) => setTimeout(r, 500));
  const system = await System.start({
    all: { NATS_URL: `nats://127.0.0.1:${natsPort}`, REDIS_URL: `redis://127.0.0.1:${redisPort}`, BB_LOG_LEVEL: "warn" },
    "api-gateway": { BB_RATE_LIMIT_TRUSTED_PROXIES: "127.0.0.1,::1", BB_RATE_LIMIT_AUTHENTICATED_PER_MINUTE: "100000" },
    // the whole load comes from one address: lift the intake's per-IP message limit for it
    "inbox-smtp": { BB_SMTP_MAX_MESSAGES_PER_IP_PER_MINUTE: "1000000" },
  });
  const receiver = await WebhookReceiver.start();
  try {
    const api = apiClient(system.gatewayUrl);
    const world = await teamWithDomain(api);
    const inbox = await createInbox(api, world.owner.token, world.assignmentId, "faults");
    const hook = await api("POST", `/orgs/${world.orgId}/teams/${world.teamId}/webhooks`, {
      token: world.owner.token,
      body: { url: receiver.url, events: ["email.received"] },
    });
    if (hook.status !== 201) throw new Error(`webhook: ${hook.status}`);
    // straight to the realtime service, so that restarting the gateway does not close the stream
    const ticket = await api<{ ticket: string }>("POST", "/ws/ticket", { token: world.owner.token });
    const socket = await openSocket(
      `ws://127.0.0.1:${system.ports["realtime-gateway"]}/api/v1/ws/inboxes/${inbox.id}?ticket=${ticket.body.ticket}`,
    );

    process.stdout.write(
      `${machine()}\n${MESSAGES} messages at ${RATE} msg/s; faults: ${KILLED.join(", ")} killed (-9) and restarted, then NATS and Redis restarted\n`,
    );
    const accepted = new Set<string>();
    let resent = 0;
    /** One attempt; true on 250. A session cut by a kill can hang without an answer: given up after 10 s, like an MTA's timeout. */
    const attempt = async (subject: string): Promise<boolean> => {
      try {
        const r = await Promise.race([
          sendMail(system.ports.smtp, { from: "load@example.org", to: inbox.full_address, subject, text: `body of ${subject}` }),
          new Promise<null>((resolve) => setTimeout(() => resolve(null), 10_000)),
        ]);
        return r?.data?.code === 250;
      } catch {
        return false; // connection refused or reset while the intake restarts
      }
    };
    const started = Date.now();
    const faults = [
      ...KILLED.map((p) => async () => {
        await system.stopProcess(p, "SIGKILL");
        await system.startProcess(p);
      }),
      () => nats.restart(),
      () => redis.restart(),
    ];
    const every = (MESSAGES / RATE / (faults.length + 1)) * 1000;
    const faultRun = (async () => {
      for (const [i, fault] of faults.entries()) {
        await new Promise((r) => setTimeout(r, Math.max(0, started + every * (i + 1) - Date.now())));
        await fault();
      }
    })();
    // CONNECTIONS senders share one queue; message i is offered at started + i / RATE; a message
    // without its 250 goes back to the end of the queue after a pause (an MTA's retry)
    const queue = Array.from({ length: MESSAGES }, (_, i) => ({ subject: `fault-${i}`, notBefore: started + (i * 1000) / RATE }));
    const sender = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        await new Promise((r) => setTimeout(r, Math.max(0, next.notBefore - Date.now())));
        if (await attempt(next.subject)) {
          accepted.add(next.subject);
        } else {
          resent++;
          queue.push({ subject: next.subject, notBefore: Date.now() + 500 });
        }
      }
    };
    const sends = Array.from({ length: CONNECTIONS }, () => sender());
    const progress = setInterval(
      () => process.stdout.write(`  ${((Date.now() - started) / 1000).toFixed(0)} s: ${accepted.size} accepted, ${resent} resent\n`),
      5000,
    );
    await Promise.all([...sends, faultRun]);
    clearInterval(progress);

    const delivered = () => receiver.received.map((h) => JSON.parse(h.raw.toString("utf8")) as { id: string; data: { subject: string } });
    const streamed = () => new Set(socket.frames.filter((f) => f.type === "email.received").map((f) => f.data.subject as string));
    const stored = async () => {
      const res = await api<{ total: number }>("GET", `/inboxes/${inbox.id}/emails?per_page=1`, { token: world.owner.token });
      return res.status === 200 ? res.body.total : -1;
    };
    await waitFor(async () => (await stored()) >= accepted.size && new Set(delivered().map((d) => d.data.subject)).size >= accepted.size, {
      what: "every accepted message to be stored and delivered",
      timeoutMs: 180_000,
      intervalMs: 1000,
    }).catch(() => undefined);
    const deliveries = delivered();
    const bySubject = new Map<string, Set<string>>();
    for (const d of deliveries) bySubject.set(d.data.subject, (bySubject.get(d.data.subject) ?? new Set()).add(d.id));
    const duplicates = deliveries.length - bySubject.size;
    const splitIds = [...bySubject.values()].filter((ids) => ids.size > 1).length;
    const missingStored = accepted.size - (await stored());
    const missingDelivered = [...accepted].filter((s) => !bySubject.has(s)).length;
    const lines = [
      `accepted: ${accepted.size} (${resent} sends repeated after a refused or broken session)`,
      `stored: ${await stored()}`,
      `streamed: ${[...accepted].filter((s) => streamed().has(s)).length}`,
      `delivered: ${bySubject.size}`,
      `duplicates: ${duplicates} deliveries, ${splitIds} messages with more than one delivery id`,
      `took: ${((Date.now() - started) / 1000).toFixed(1)} s`,
    ];
    process.stdout.write(`${lines.join("\n")}\n`);
    socket.ws.close();
    if (missingStored !== 0 || missingDelivered !== 0 || splitIds !== 0) process.exitCode = 1;
  } finally {
    await receiver.close();
    await system.stop();
    nats.stop();
    redis.stop();
  }
}

void main();
