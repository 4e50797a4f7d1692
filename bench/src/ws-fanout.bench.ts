/**
 * Many inbox WebSockets on one realtime-gateway process, against bare servers, in one run:
 *   1. a bare `ws` server in a process of its own holding as many sockets, broadcasting one frame
 *      two ways: `ws.send` on each socket, and one pre-made frame written to each socket's TCP
 *      connection (the floor for one Node process writing to that many sockets); each timed from
 *      the broadcast request to every socket;
 *   2. the system: BENCH_SOCKETS (default 10,000) sockets on one inbox, each opened with its own
 *      ticket straight to the realtime-gateway's port; then mails over SMTP, one at a time, each
 *      timed from sending its DATA to the `email.received` frame on every socket.
 *   3. the system again, the same number of sockets spread over BENCH_SPREAD_INBOXES (default 100)
 *      inboxes, as many on each: mail to one inbox at a time (five of them, each with its rounds),
 *      timed to every socket of that inbox while the process holds all the others.
 * Each path gets a warm-up round, then BENCH_ROUNDS (default 5) measured rounds; a round's p99 is
 * over the sockets, and the figure printed is the median round's. Also prints the resident memory
 * of each server process before and after the sockets, and the realtime-gateway's own broadcast
 * time (its `burnbox_websocket_broadcast_seconds` metric): the part of the system figure spent
 * writing the frame to the sockets.
 * After the rounds the bench waits for the realtime-gateway's next heartbeat (a ping to every
 * socket, every BENCH_PING_MS: 30 s as in production by default) and prints how long it took and
 * the longest the process's event loop was held meanwhile (prom-client's event-loop delay, whose
 * window each scrape starts anew).
 * Run: pnpm --filter @burnbox/bench ws-fanout   (Postgres, Redis and NATS must be up)
 */
import { readFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { Socket } from "node:net";
import { apiClient, buildMessage, createInbox, SmtpSession, System, teamWithDomain } from "@burnbox/tests-e2e";
import { machine, percentile, spawnBare } from "./stats";

const SOCKETS = Number(process.env.BENCH_SOCKETS ?? 10_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const OPEN_BATCH = 250;
const PING_MS = Number(process.env.BENCH_PING_MS ?? 30_000);
const SPREAD_INBOXES = Number(process.env.BENCH_SPREAD_INBOXES ?? 100);
/** How many of the spread inboxes get mail (each its own warm-up and rounds). */
const SPREAD_MAILED = 5;

/** Resident memory of a process in MB (Linux /proc). */
function rssMb(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) / 1024 : NaN;
}

/**
 * The receiving side of the benchmark is on the same two cores as the server, so it does as little
 * as a WebSocket client can: it opens each socket with the HTTP upgrade handshake, then reads only
 * the frames' headers (RFC 6455 5.2; a server's frames are not masked), looks for the round's
 * marker in each text frame's bytes as sent (no JSON) and answers each ping with a pong carrying
 * its payload, masked with a zero key (so the bytes are the payload's own).
 */
function pong(payload: Buffer): Buffer {
  const n = payload.length; // a control frame's payload is at most 125 bytes
  return Buffer.concat([Buffer.from([0x8a, 0x80 | n, 0, 0, 0, 0]), payload]);
}

/** Calls `onFrame(opcode, payload)` for each whole frame in `buf`; returns the bytes of an incomplete last frame. */
function frames(buf: Buffer, onFrame: (opcode: number, payload: Buffer) => void): Buffer | null {
  let at = 0;
  while (at + 2 <= buf.length) {
    let length = (buf[at + 1] as number) & 0x7f;
    let head = 2;
    if (length === 126) {
      if (at + 4 > buf.length) break;
      length = buf.readUInt16BE(at + 2);
      head = 4;
    } else if (length === 127) {
      if (at + 10 > buf.length) break;
      length = Number(buf.readBigUInt64BE(at + 2));
      head = 10;
    }
    if (at + head + length > buf.length) break;
    onFrame((buf[at] as number) & 0x0f, buf.subarray(at + head, at + head + length));
    at += head + length;
  }
  return at < buf.length ? buf.subarray(at) : null;
}

/**
 * The sockets of one path and the arrival times of the current round's frame, which each socket
 * recognises by the round's marker (a quoted string only that round's frame carries).
 */
class Fleet {
  readonly sockets: Socket[] = [];
  arrivals: number[] = [];
  round = 0;
  marker = Buffer.alloc(0);

  /** Starts round `round`, whose frame carries `"<text>"`. */
  arm(round: number, text: string): void {
    this.round = round;
    this.marker = Buffer.from(JSON.stringify(text));
    this.arrivals = [];
  }

  open(url: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const req = http.get(url, {
        agent: false,
        headers: {
          connection: "Upgrade",
          upgrade: "websocket",
          "sec-websocket-version": "13",
          "sec-websocket-key": randomBytes(16).toString("base64"),
        },
      });
      req.once("upgrade", (_res, socket: Socket, head: Buffer) => {
        let seen = -1;
        socket.setNoDelay(true);
        let rest: Buffer | null = null;
        const onFrame = (opcode: number, payload: Buffer) => {
          if (opcode === 0x9) socket.write(pong(payload));
          else if (opcode === 0x1 && seen !== this.round && this.marker.length > 0 && payload.includes(this.marker)) {
            seen = this.round;
            this.arrivals.push(performance.now());
          }
        };
        const onData = (chunk: Buffer) => {
          rest = frames(rest ? Buffer.concat([rest, chunk]) : chunk, onFrame);
        };
        socket.on("data", onData);
        if (head.length > 0) onData(head); // bytes that came with the 101 (a first ping, say)
        socket.on("error", () => undefined);
        this.sockets.push(socket);
        resolve();
      });
      req.once("response", (res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
      req.once("error", reject);
    });
  }

  /** Opens `count` sockets from `urlFor(i)`, `OPEN_BATCH` at a time. */
  async openMany(count: number, urlFor: (i: number) => Promise<string> | string): Promise<void> {
    for (let start = 0; start < count; start += OPEN_BATCH) {
      await Promise.all(
        Array.from({ length: Math.min(OPEN_BATCH, count - start) }, async (_, k) =>
          this.open((await urlFor(start + k)).replace(/^ws/, "http")),
        ),
      );
    }
  }

  /** Resolves once every socket has this round's frame. */
  async received(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.arrivals.length < this.sockets.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    if (this.arrivals.length < this.sockets.length)
      throw new Error(`only ${this.arrivals.length} of ${this.sockets.length} sockets got the frame`);
  }

  /**
   * A warm-up round, then `ROUNDS` measured ones: `trigger(text)` makes the frame carrying `text`
   * and returns when it started; the latencies count from then. `measuring` is called after the
   * warm-up. Returns each round's latencies.
   */
  async rounds(label: string, trigger: (text: string) => Promise<number>, measuring?: () => Promise<void>): Promise<number[][]> {
    const measured: number[][] = [];
    for (let round = 0; round <= ROUNDS; round++) {
      const text = `${label}-${round}`;
      this.arm(round, text);
      const from = await trigger(text);
      await this.received(60_000);
      if (round > 0) measured.push(this.arrivals.map((t) => t - from));
      else await measuring?.();
    }
    return measured;
  }

  close(): void {
    for (const socket of this.sockets) socket.destroy();
  }
}

const median = (xs: number[]) => percentile(xs, 50);

/** One line for a path: the median round's p50, p99, max and first-to-last spread, and every round's p99. */
function report(label: string, rounds: number[][]): { p99: number; spread: number } {
  const p99s = rounds.map((r) => percentile(r, 99));
  const spread = median(rounds.map((r) => Math.max(...r) - Math.min(...r)));
  const p99 = median(p99s);
  process.stdout.write(
    `${label.padEnd(30)} p50 ${median(rounds.map((r) => percentile(r, 50))).toFixed(1)} ms  p99 ${p99.toFixed(1)} ms  max ${median(rounds.map((r) => Math.max(...r))).toFixed(1)} ms  first-to-last ${spread.toFixed(1)} ms  (p99 by round: ${p99s.map((x) => x.toFixed(0)).join(", ")})\n`,
  );
  return { p99, spread };
}

/**
 * A bare ws server in a child process. POST /broadcast?subject=…&framed=0|1 sends one frame to
 * every socket: with `ws.send` on each, or (framed=1) as one frame laid out once and written to
 * each socket's TCP connection, the one its upgrade came on.
 */
async function bareServer(): Promise<{
  port: number;
  pid: number;
  broadcast(subject: string, framed: boolean): Promise<number>;
  stop(): void;
}> {
  const code = `
    const http = require("node:http");
    const { WebSocketServer } = require(${JSON.stringify(require.resolve("ws"))});
    const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
    const transports = [];
    const server = http.createServer((req, res) => {
      const q = new URL(req.url, "http://x").searchParams;
      const payload = Buffer.from(JSON.stringify({ type: "email.received", data: { subject: q.get("subject"), from_address: "a@example.org" } }));
      if (q.get("framed") === "1") {
        const head = payload.length < 126 ? Buffer.from([0x81, payload.length]) : Buffer.from([0x81, 126, payload.length >> 8, payload.length & 255]);
        const frame = Buffer.concat([head, payload]);
        for (const socket of transports) socket.write(frame);
      } else {
        for (const ws of wss.clients) ws.send(payload, { binary: false });
      }
      res.end("ok");
    });
    server.on("upgrade", (req, socket, head) => wss.handleUpgrade(req, socket, head, () => transports.push(socket)));
    server.listen(0, "127.0.0.1", () => process.stdout.write(String(server.address().port) + "\\n"));`;
  const { ports, pid, stop } = await spawnBare(code);
  const port = ports[0] as number;
  return {
    port,
    pid,
    broadcast: async (subject, framed) => {
      const from = performance.now();
      await fetch(`http://127.0.0.1:${port}/broadcast?subject=${encodeURIComponent(subject)}&framed=${framed ? 1 : 0}`, { method: "POST" });
      return from;
    },
    stop,
  };
}

/** One scrape of a process's /metrics, read by name (each scrape starts a new event-loop delay window). */
async function scrape(port: number) {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  return {
    gauge: (name: string) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, "m").exec(text)?.[1] ?? NaN),
    /** The sum and count of a histogram's samples whose labels include `label` (`stream="inbox"`). */
    histogram: (name: string, label: string) => {
      const read = (suffix: string) => Number(new RegExp(`^${name}_${suffix}\\{[^}]*${label}[^}]*\\} (\\S+)$`, "m").exec(text)?.[1] ?? 0);
      return { sum: read("sum"), count: read("count") };
    },
  };
}

async function main(): Promise<void> {
  process.stdout.write(`machine: ${machine()}\n${SOCKETS} sockets on one inbox, a warm-up round and ${ROUNDS} measured rounds each\n`);

  const bare = await bareServer();
  const bareBefore = rssMb(bare.pid);
  const b = new Fleet();
  await b.openMany(SOCKETS, () => `ws://127.0.0.1:${bare.port}/`);
  const bareAfter = rssMb(bare.pid);
  process.stdout.write(`bare ws server: RSS ${bareBefore.toFixed(0)} -> ${bareAfter.toFixed(0)} MB\n`);
  const bareWs = report("bare ws.send -> frame", await b.rounds("bare", (subject) => bare.broadcast(subject, false)));
  const bareFramed = report("bare pre-framed -> frame", await b.rounds("framed", (subject) => bare.broadcast(subject, true)));
  b.close();
  bare.stop();

  const system = await System.start({
    all: { BB_LOG_LEVEL: "warn" },
    "api-gateway": { BB_RATE_LIMIT_ENABLED: "false" },
    "realtime-gateway": { BB_WS_PING_INTERVAL_MS: String(PING_MS) },
  });
  try {
    const api = apiClient(system.gatewayUrl);
    const world = await teamWithDomain(api);
    const inbox = await createInbox(api, world.owner.token, world.assignmentId, "fanout");
    const pid = system.pid("realtime-gateway");
    const before = rssMb(pid);
    const ticket = async (inboxId: string) => {
      const t = await api<{ ticket: string }>("POST", "/ws/ticket", { token: world.owner.token });
      if (t.status !== 201) throw new Error(`ticket: ${t.status}`);
      return `ws://127.0.0.1:${system.ports["realtime-gateway"]}/api/v1/ws/inboxes/${inboxId}?ticket=${t.body.ticket}`;
    };
    const opened = Date.now();
    const s = new Fleet();
    await s.openMany(SOCKETS, () => ticket(inbox.id));
    const after = rssMb(pid);
    process.stdout.write(
      `realtime-gateway: ${SOCKETS} sockets opened in ${((Date.now() - opened) / 1000).toFixed(1)} s; RSS ${before.toFixed(0)} -> ${after.toFixed(0)} MB (target < 500 MB)\n`,
    );
    const mailTo = (to: string) => async (subject: string) => {
      const smtp = await SmtpSession.open(system.ports.smtp);
      await smtp.command("MAIL FROM:<fan@example.org>");
      await smtp.command(`RCPT TO:<${to}>`);
      const from = performance.now(); // the message is sent now; its 250 comes once it is stored
      const reply = await smtp.data(buildMessage({ from: "fan@example.org", to, subject, text: "x" }));
      if (reply.code !== 250) throw new Error(`SMTP ${reply.code}`);
      await smtp.quit();
      return from;
    };
    const port = system.ports["realtime-gateway"];
    let broadcasts = { sum: 0, count: 0 };
    const BROADCAST = ["burnbox_websocket_broadcast_seconds", 'stream="inbox"'] as const;
    const measuring = async () => void (broadcasts = (await scrape(port)).histogram(...BROADCAST));
    const sys = report("SMTP DATA -> frame, system", await s.rounds("fan-out", mailTo(inbox.full_address), measuring));
    const after2 = (await scrape(port)).histogram(...BROADCAST);
    const writeMs = ((after2.sum - broadcasts.sum) * 1000) / (after2.count - broadcasts.count);
    process.stdout.write(
      `realtime-gateway broadcast (in process, mean of ${after2.count - broadcasts.count}): ${writeMs.toFixed(1)} ms for ${SOCKETS} sockets, ${((writeMs * 1000) / SOCKETS).toFixed(1)} us a socket\n` +
        `ratios: system p99 / bare ws.send ${(sys.p99 / bareWs.p99).toFixed(2)}, / bare pre-framed ${(sys.p99 / bareFramed.p99).toFixed(2)}; ` +
        `first-to-last: system ${sys.spread.toFixed(1)} ms, bare pre-framed ${bareFramed.spread.toFixed(1)} ms\n` +
        `memory per socket: system ${(((after - before) * 1024) / SOCKETS).toFixed(1)} KB, bare ${(((bareAfter - bareBefore) * 1024) / SOCKETS).toFixed(1)} KB\n`,
    );
    // the next heartbeat: each of the three hubs (inbox, notifications, admin stats) runs once
    const HEARTBEAT = ["burnbox_worker_run_duration_seconds", 'task="ws-heartbeat"'] as const;
    const beats = (await scrape(port)).histogram(...HEARTBEAT); // also starts a new event-loop delay window
    let beats2 = beats;
    let stall = 0;
    for (const deadline = Date.now() + PING_MS + 5000; beats2.count < beats.count + 3 && Date.now() < deadline;) {
      await new Promise((r) => setTimeout(r, 250));
      const now = await scrape(port);
      beats2 = now.histogram(...HEARTBEAT);
      stall = Math.max(stall, now.gauge("nodejs_eventloop_lag_max_seconds"));
    }
    process.stdout.write(
      `heartbeat (every ${PING_MS / 1000} s): ${(((beats2.sum - beats.sum) * 1000) / Math.max(1, (beats2.count - beats.count) / 3)).toFixed(1)} ms to ping ${SOCKETS} sockets; longest event-loop delay meanwhile ${(stall * 1000).toFixed(1)} ms\n`,
    );
    s.close();

    // the same number of sockets over many inboxes: each mail goes to the sockets of its inbox only
    const perInbox = Math.ceil(SOCKETS / SPREAD_INBOXES);
    const spread: Array<{ address: string; fleet: Fleet }> = [];
    for (let i = 0; i < SPREAD_INBOXES; i++) {
      const one = await createInbox(api, world.owner.token, world.assignmentId, `spread-${i}`);
      const fleet = new Fleet();
      await fleet.openMany(perInbox, () => ticket(one.id));
      spread.push({ address: one.full_address, fleet });
    }
    const spreadRounds: number[][] = [];
    for (const { address, fleet } of spread.slice(0, SPREAD_MAILED)) spreadRounds.push(...(await fleet.rounds("spread", mailTo(address))));
    process.stdout.write(
      `${SPREAD_INBOXES * perInbox} sockets over ${SPREAD_INBOXES} inboxes (${perInbox} each), ${SPREAD_MAILED} of them mailed; RSS ${rssMb(pid).toFixed(0)} MB
`,
    );
    report("SMTP DATA -> frame, one inbox", spreadRounds);
    for (const { fleet } of spread) fleet.close();
  } finally {
    await system.stop();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
