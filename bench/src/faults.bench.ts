/**
 * Fault injection under SMTP load (issue: hardening; issue 30 item 5). Each scenario starts a system
 * of its own on a PostgreSQL, a NATS and a Redis this script starts (so stopping them disturbs
 * nothing else on the machine: the PostgreSQL is a private cluster on a port of its own, reached
 * through a proxy the script can close), receives mail at a steady rate while its faults happen in
 * turn, and prints what was accepted (250), stored (listed by the API), streamed (WebSocket frames),
 * delivered (signed webhooks) and the duplicates, which must share a delivery id.
 *
 * Scenarios (BENCH_FAULTS, comma-separated; all by default):
 * - services: each service killed with SIGKILL and restarted, then NATS and Redis restarted;
 * - postgres: PostgreSQL restarted (pg_ctl -m fast), PostgreSQL refusing connections for 30 s,
 *   PostgreSQL frozen for 30 s (SIGSTOP: connections open and silent), and every pool full (the
 *   emails table locked for 20 s);
 * - postgres-long-lock (not in the default set): the emails table locked for 75 s, longer than
 *   the sender waits for its reply, with the intake's smtp.store_timeout (BENCH_STORE_TIMEOUT, 20s);
 * - nats-cluster: on a 3-node JetStream cluster (streams R3, the services given every member), one
 *   member killed and restarted, the SMTP intake restarted while it is down.
 * - realtime (not in the default set): two replicas of every process; BENCH_WS_CLIENTS (20) clients of
 *   the SDK's `stream()` on the inbox through the gateway, which reconnect with `last_event_id`;
 *   each realtime-gateway replica killed (-9) and restarted in turn. Every client must receive each
 *   stored mail's frame exactly once (frames received = mail received, no duplicate).
 *
 * The load generator behaves like a real MTA: a message that did not get its 250 is sent again.
 * Exits non-zero when anything accepted is missing, or a message has two delivery ids.
 * Run: node deploy/local/build.mjs && pnpm --filter @burnbox/bench faults
 *      (BENCH_FAULTS, BENCH_MESSAGES, BENCH_RATE, BENCH_CONNECTIONS, BENCH_PG_PORT, BENCH_LONG_LOCK_MS,
 *      BENCH_STORE_TIMEOUT)
 */
import { WebSocket } from "ws";
import { waitFor, testInfra } from "@burnbox/test-kit";
import {
  type System,
  WebhookReceiver,
  apiClient,
  createInbox,
  freePorts,
  openSocket,
  sendMail,
  teamWithDomain,
  type ProcessName,
} from "@burnbox/tests-e2e";
import {
  PrivatePostgres,
  natsConnections,
  natsReady,
  natsServer,
  natsStreams,
  redisServer,
  startSystem,
  type Owned,
} from "./private-infra";
import { machine } from "./stats";

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 600);
const RATE = Number(process.env.BENCH_RATE ?? 30);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 4);
const PG_PORT = Number(process.env.BENCH_PG_PORT ?? 55432);
const KILLED: ProcessName[] = ["inbox-smtp", "webhook-dispatcher", "inbox", "tenancy", "identity", "api-gateway"];
/** The long lock: past the load generator's 60 s wait for a reply (BENCH_LONG_LOCK_MS). */
const LONG_LOCK_MS = Number(process.env.BENCH_LONG_LOCK_MS ?? 75_000);
/** The realtime scenario's stream clients (BENCH_WS_CLIENTS). */
const WS_CLIENTS = Number(process.env.BENCH_WS_CLIENTS ?? 20);
const SCENARIOS = (process.env.BENCH_FAULTS ?? "services,postgres,nats-cluster").split(",").map((s) => s.trim());

interface Fault {
  name: string;
  run(): Promise<void>;
}

interface Infra {
  pg: PrivatePostgres;
  natsUrl: string;
  redisUrl: string;
  natsEnv: Record<string, string>;
  /** More settings of the SMTP intake (BB_SMTP_STORE_TIMEOUT). */
  intakeEnv?: Record<string, string>;
  owned: Owned[];
}

/** A client of the SDK's `stream()` on the inbox: the email ids of its `email.received` frames, and what went wrong. */
interface StreamClient {
  ids: Set<string>;
  duplicates: number;
  resyncs: number;
  error: string | null;
  reconnects(): number;
  close(): void;
  done: Promise<void>;
}

/** `n` clients of the SDK's stream() through the gateway, each open (ready) before the load starts. */
async function openStreams(system: System, token: string, inboxId: string, n: number): Promise<StreamClient[]> {
  // the SDK as it ships (dist; `pnpm --filter @burnbox/sdk typecheck` builds it)
  const { BurnBox } = await import("@burnbox/sdk");
  const bb = new BurnBox({ baseUrl: system.gatewayUrl, token, WebSocket });
  return Promise.all(
    Array.from({ length: n }, async () => {
      const stream = bb.stream(inboxId, { reconnect: { maxAttempts: 30, delayMs: (a) => Math.min(2000, 100 * 2 ** (a - 1)) } });
      await stream.ready;
      const client: StreamClient = {
        ids: new Set(),
        duplicates: 0,
        resyncs: 0,
        error: null,
        reconnects: () => stream.reconnects,
        close: () => stream.close(),
        done: Promise.resolve(),
      };
      client.done = (async () => {
        try {
          for await (const frame of stream) {
            if (frame.type === "resync_required") client.resyncs++;
            if (frame.type !== "email.received") continue;
            const id = String(frame.data.id);
            if (client.ids.has(id)) client.duplicates++;
            else client.ids.add(id);
          }
        } catch (err) {
          client.error = err instanceof Error ? err.message : String(err);
        }
      })();
      return client;
    }),
  );
}

/** One scenario: a fresh system, the load, the faults spread over it, then the accounting. true when nothing accepted was lost. */
async function scenario(
  title: string,
  infra: Infra,
  makeFaults: (system: System) => Fault[],
  opts: { replicas?: 1 | 2; streams?: number } = {},
): Promise<boolean> {
  const system = await startSystem(
    {
      all: { NATS_URL: infra.natsUrl, REDIS_URL: infra.redisUrl, BB_LOG_LEVEL: "warn", ...infra.natsEnv },
      "api-gateway": { BB_RATE_LIMIT_TRUSTED_PROXIES: "127.0.0.1,::1", BB_RATE_LIMIT_AUTHENTICATED_PER_MINUTE: "100000" },
      // the whole load comes from one address: lift the intake's per-IP message limit for it
      "inbox-smtp": { BB_SMTP_MAX_MESSAGES_PER_IP_PER_MINUTE: "1000000", ...infra.intakeEnv },
      // a webhook's secret is stored sealed: without a key the dispatcher refuses to create one (400)
      "webhook-dispatcher": { BB_ENCRYPTION_KEY: "5e".repeat(32) },
    },
    opts.replicas ? { replicas: opts.replicas } : {},
  );
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
    const clients = opts.streams ? await openStreams(system, world.owner.token, inbox.id, opts.streams) : [];
    const faults = makeFaults(system);
    process.stdout.write(
      `\n== ${title}\n${MESSAGES} messages at ${RATE} msg/s${clients.length ? `, ${clients.length} stream clients` : ""}; faults: ${faults.map((f) => f.name).join("; ")}\n`,
    );
    const accepted = new Set<string>();
    const replies = new Map<string, number>();
    let resent = 0;
    /** One attempt; true on 250. A session cut by a kill can hang without an answer: given up after 60 s, like an MTA's timeout. */
    const attempt = async (subject: string): Promise<boolean> => {
      try {
        const r = await Promise.race([
          sendMail(system.ports.smtp, { from: "load@example.org", to: inbox.full_address, subject, text: `body of ${subject}` }),
          new Promise<null>((resolve) => setTimeout(() => resolve(null), 60_000)),
        ]);
        // the DATA reply; else where the session stopped: RCPT refused, or no answer within 60 s
        const key = r === null ? "no reply in 60 s" : r.data ? String(r.data.code) : `RCPT ${r.rcpt.code}`;
        replies.set(key, (replies.get(key) ?? 0) + 1);
        return r?.data?.code === 250;
      } catch (err) {
        // connection refused or cut (the intake restarting), or an unexpected greeting (421)
        const message = err instanceof Error ? err.message : String(err);
        const key = /ECONNREFUSED/.test(message) ? "refused" : /greeting/.test(message) ? message.slice(0, 30) : "session cut";
        replies.set(key, (replies.get(key) ?? 0) + 1);
        return false;
      }
    };
    const started = Date.now();
    const every = (MESSAGES / RATE / (faults.length + 1)) * 1000;
    const faultRun = (async () => {
      for (const [i, fault] of faults.entries()) {
        await new Promise((r) => setTimeout(r, Math.max(0, started + every * (i + 1) - Date.now())));
        const t0 = Date.now();
        await fault.run();
        process.stdout.write(
          `  ${((Date.now() - started) / 1000).toFixed(0)} s: ${fault.name} done (${((Date.now() - t0) / 1000).toFixed(1)} s)\n`,
        );
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
    const storedNow = await stored();
    const missingStored = accepted.size - storedNow;
    // frames received = mail received: every client has each stored email's frame, once
    let streamsOk = true;
    if (clients.length > 0) {
      const storedIds = new Set<string>();
      for (let page = 1; storedIds.size < storedNow; page++) {
        const res = await api<{ data: Array<{ id: string }> }>("GET", `/inboxes/${inbox.id}/emails?per_page=100&page=${page}`, {
          token: world.owner.token,
        });
        if (res.status !== 200 || res.body.data.length === 0) break;
        for (const e of res.body.data) storedIds.add(e.id);
      }
      await waitFor(() => clients.every((c) => c.ids.size >= storedIds.size || c.error !== null), {
        what: "every stream client to have every stored mail's frame",
        timeoutMs: 60_000,
        intervalMs: 500,
      }).catch(() => undefined);
      const missing = clients.map((c) => [...storedIds].filter((id) => !c.ids.has(id)).length);
      const extra = clients.map((c) => [...c.ids].filter((id) => !storedIds.has(id)).length);
      const duplicateFrames = clients.reduce((n, c) => n + c.duplicates, 0);
      const errors = clients.filter((c) => c.error !== null);
      process.stdout.write(
        `  stream clients: ${clients.length}, each should have ${storedIds.size} frames: ` +
          `received min ${Math.min(...clients.map((c) => c.ids.size))}, max ${Math.max(...clients.map((c) => c.ids.size))}; ` +
          `missing ${missing.reduce((a, b) => a + b, 0)}, not stored ${extra.reduce((a, b) => a + b, 0)}, duplicates ${duplicateFrames}, ` +
          `resync_required ${clients.reduce((n, c) => n + c.resyncs, 0)}, reconnects ${clients.reduce((n, c) => n + c.reconnects(), 0)}` +
          `${errors.length ? `, ${errors.length} failed (${errors[0]!.error})` : ""}\n`,
      );
      streamsOk = missing.every((m) => m === 0) && extra.every((m) => m === 0) && duplicateFrames === 0 && errors.length === 0;
      for (const c of clients) c.close();
    }
    const missingDelivered = [...accepted].filter((s) => !bySubject.has(s)).length;
    // the socket straight to realtime-gateway stays open through every fault: a frame twice is a fault's
    const socketFrames = socket.frames.filter((f) => f.type === "email.received");
    const lines = [
      `accepted: ${accepted.size} (${resent} sends repeated after a refused or broken session; replies ${[...replies.entries()].map(([c, n]) => `${c}×${n}`).join(", ")})`,
      `stored: ${storedNow}`,
      `streamed: ${[...accepted].filter((s) => streamed().has(s)).length} (${socketFrames.length - streamed().size} frames twice, ${socket.frames.filter((f) => f.type === "resync_required").length} resync_required)`,
      `delivered: ${bySubject.size}`,
      `duplicates: ${duplicates} deliveries, ${splitIds} messages with more than one delivery id`,
      `took: ${((Date.now() - started) / 1000).toFixed(1)} s`,
    ];
    process.stdout.write(`${lines.map((l) => `  ${l}`).join("\n")}\n`);
    socket.ws.close();
    return missingStored === 0 && missingDelivered === 0 && splitIds === 0 && streamsOk;
  } finally {
    await receiver.close();
    await system.stop();
  }
}

async function main(): Promise<void> {
  const [proxyPort, natsPort, natsMonitor, redisPort, ...clusterPorts] = await freePorts(4 + 9);
  const pg = await PrivatePostgres.start(PG_PORT, proxyPort as number);
  // the system's databases (and the harness's drops) go to the private cluster
  testInfra.postgresUrl = pg.url;
  const redis = redisServer(redisPort as number);
  redis.start();
  const owned: Owned[] = [redis];
  process.stdout.write(
    `${machine()}\nPostgreSQL 15 private cluster on ${PG_PORT} (proxy ${proxyPort}); scenarios: ${SCENARIOS.join(", ")}\n`,
  );
  let ok = true;
  // the cluster runs detached (pg_ctl): stopped on Ctrl-C too
  const onSignal = () => {
    for (const o of owned) o.stop();
    pg.stop();
    process.exit(130);
  };
  process.once("SIGINT", onSignal).once("SIGTERM", onSignal);
  try {
    if (SCENARIOS.some((s) => ["services", "postgres", "postgres-long-lock", "realtime"].includes(s))) {
      const nats = natsServer(natsPort as number, natsMonitor as number);
      nats.start();
      owned.push(nats);
      await natsReady(natsMonitor as number);
      const natsUrl = `nats://127.0.0.1:${natsPort}`;
      testInfra.natsUrl = natsUrl;
      const infra: Infra = { pg, natsUrl, redisUrl: `redis://127.0.0.1:${redisPort}`, natsEnv: {}, owned };
      if (SCENARIOS.includes("services")) {
        ok =
          (await scenario("services killed, NATS and Redis restarted", infra, (system) => [
            ...KILLED.map((p) => ({
              name: `${p} killed (-9) and restarted`,
              run: async () => {
                await system.stopProcess(p, "SIGKILL");
                await system.startProcess(p);
              },
            })),
            { name: "NATS restarted", run: () => nats.restart() },
            { name: "Redis restarted", run: () => redis.restart() },
          ])) && ok;
      }
      if (SCENARIOS.includes("postgres")) {
        ok =
          (await scenario("PostgreSQL failing", infra, (system) => [
            { name: "PostgreSQL restarted (pg_ctl restart -m fast)", run: async () => pg.restart() },
            { name: "PostgreSQL refusing connections for 30 s", run: () => pg.refuse(30_000) },
            { name: "PostgreSQL frozen for 30 s (every process stopped, connections left open)", run: () => pg.freeze(30_000) },
            { name: "every pool full: the emails table locked for 20 s", run: () => pg.lockEmails(system.databaseName("inbox"), 20_000) },
          ])) && ok;
      }
      if (SCENARIOS.includes("postgres-long-lock")) {
        // longer than the sender's 60 s wait for its reply: without a bound on the intake's write, the
        // write the sender gave up on commits when the lock ends, beside the sender's retry
        const storeTimeout = process.env.BENCH_STORE_TIMEOUT ?? "20s";
        ok =
          (await scenario(
            `the emails table locked for ${LONG_LOCK_MS / 1000} s (smtp.store_timeout ${storeTimeout})`,
            { ...infra, intakeEnv: { BB_SMTP_STORE_TIMEOUT: storeTimeout } },
            (system) => [
              {
                name: `the emails table locked for ${LONG_LOCK_MS / 1000} s`,
                run: () => pg.lockEmails(system.databaseName("inbox"), LONG_LOCK_MS),
              },
            ],
          )) && ok;
      }
      if (SCENARIOS.includes("realtime")) {
        const killRealtime = (set: () => System | null, label: string): Fault => ({
          name: `realtime-gateway ${label} killed (-9) and restarted`,
          run: async () => {
            const s = set();
            if (!s) throw new Error("no replica set");
            await s.stopProcess("realtime-gateway", "SIGKILL");
            await s.startProcess("realtime-gateway");
          },
        });
        ok =
          (await scenario(
            "realtime-gateway replicas killed under load, stream clients resuming",
            infra,
            (system) => [killRealtime(() => system, "replica 1"), killRealtime(() => system.replicaSet, "replica 2")],
            { replicas: 2, streams: WS_CLIENTS },
          )) && ok;
      }
      await nats.kill();
    }
    if (SCENARIOS.includes("nats-cluster")) {
      const [c1, c2, c3, r1, r2, r3, m1, m2, m3] = clusterPorts as [number, number, number, number, number, number, number, number, number];
      const routes = [r1, r2, r3];
      const monitors = [m1, m2, m3];
      const members = [c1, c2, c3].map((port, i) =>
        natsServer(port, monitors[i] as number, {
          cluster: { name: `n${i + 1}`, port: routes[i] as number, routes: routes.filter((_, j) => j !== i) },
        }),
      );
      for (const m of members) m.start();
      owned.push(...members);
      await Promise.all(monitors.map((m) => natsReady(m)));
      // the services are given every member, as docs/operations.md asks; the harness's own
      // connections (set-up, clean-up) go to n2, which stays up
      testInfra.natsUrl = `nats://127.0.0.1:${c2}`;
      const natsUrl = [c1, c2, c3].map((p) => `nats://127.0.0.1:${p}`).join(",");
      const infra: Infra = { pg, natsUrl, redisUrl: `redis://127.0.0.1:${redisPort}`, natsEnv: { BB_NATS_STREAM_REPLICAS: "3" }, owned };
      const [first] = members as [Owned];
      const spread = async () => (await Promise.all(monitors.map((m) => natsConnections(m).catch(() => -1)))).join(" / ");
      ok =
        (await scenario("NATS cluster (3 nodes, streams R3): a member lost", infra, (system) => [
          {
            name: "NATS member n1 killed (-9), the SMTP intake restarted while it is down, n1 back after 15 s",
            run: async () => {
              const streams = await natsStreams(m2);
              process.stdout.write(
                `  streams: ${streams.map((st) => `${st.name} R${st.replicas} (leader ${st.leader})`).join(", ")}\n` +
                  `  client connections on n1 / n2 / n3 before: ${await spread()}\n`,
              );
              await first.kill();
              // a process that starts while a member is down connects to another listed one
              await system.stopProcess("inbox-smtp", "SIGKILL");
              await system.startProcess("inbox-smtp");
              process.stdout.write(`  client connections on n2 / n3 with n1 down: ${(await spread()).split(" / ").slice(1).join(" / ")}\n`);
              await new Promise((r) => setTimeout(r, 15_000));
              first.start();
              await natsReady(m1);
            },
          },
        ])) && ok;
    }
  } finally {
    for (const o of owned) o.stop();
    pg.stop();
  }
  if (!ok) process.exitCode = 1;
}

void main();
