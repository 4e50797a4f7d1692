/**
 * Many inbox WebSockets on one realtime-gateway process, two ways in one run:
 *   1. the system: BENCH_SOCKETS (default 10,000) sockets on one inbox, each opened with its own
 *      ticket straight to the realtime-gateway's port; then one mail over SMTP, and the time from
 *      sending its DATA to the `email.received` frame on every socket;
 *   2. a bare `ws` server in a process of its own holding as many sockets and broadcasting one
 *      frame, timed from the broadcast request to every socket.
 * Prints the resident memory of each server process before and after the sockets, the frame's
 * p50/p99/max over the sockets, and the ratios.
 * Run: pnpm --filter @burnbox/bench ws-fanout   (Postgres, Redis and NATS must be up)
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { Socket } from "node:net";
import { apiClient, buildMessage, createInbox, SmtpSession, System, teamWithDomain } from "@burnbox/tests-e2e";
import { machine, percentile } from "./stats";

const SOCKETS = Number(process.env.BENCH_SOCKETS ?? 10_000);
const OPEN_BATCH = 250;

/** Resident memory of a process in MB (Linux /proc). */
function rssMb(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) / 1024 : NaN;
}

/**
 * The receiving side of the benchmark is on the same two cores as the server, so it does as little
 * as a WebSocket client can: it opens each socket with the HTTP upgrade handshake, then only looks
 * for the frame's type in the bytes as they arrive (a server's frames are not masked, so the JSON
 * is there as sent) and answers the server's pings (empty, like the realtime-gateway's
 * heartbeat) with a masked empty pong. No frame parsing, no JSON.
 */
const PONG = Buffer.from([0x8a, 0x80, 0, 0, 0, 0]);

function openRaw(url: string, marker: Buffer, onFrame: () => void): Promise<Socket> {
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
    req.once("upgrade", (_res, socket: Socket) => {
      let seen = false;
      socket.setNoDelay(true);
      socket.on("data", (chunk: Buffer) => {
        if (chunk[0] === 0x89) socket.write(PONG);
        if (!seen && chunk.includes(marker)) {
          seen = true;
          onFrame();
        }
      });
      socket.on("error", () => undefined);
      resolve(socket);
    });
    req.once("response", (res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
    req.once("error", reject);
  });
}

/** Opens `count` sockets from `urlFor(i)` in batches; each records when its first frame of `type` arrived. */
async function openMany(count: number, urlFor: (i: number) => Promise<string> | string, type: string) {
  const sockets: Socket[] = [];
  const arrivals: number[] = [];
  const marker = Buffer.from(`"type":"${type}"`);
  for (let start = 0; start < count; start += OPEN_BATCH) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(OPEN_BATCH, count - start) }, async (_, k) =>
        openRaw((await urlFor(start + k)).replace(/^ws/, "http"), marker, () => arrivals.push(performance.now())),
      ),
    );
    sockets.push(...batch);
  }
  return { sockets, arrivals };
}

async function waitAll(arrivals: number[], count: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (arrivals.length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  if (arrivals.length < count) throw new Error(`only ${arrivals.length} of ${count} sockets got the frame`);
}

const report = (label: string, from: number, arrivals: number[]) => {
  const lat = arrivals.map((t) => t - from);
  return `${label.padEnd(28)} p50 ${percentile(lat, 50).toFixed(1)} ms  p99 ${percentile(lat, 99).toFixed(1)} ms  max ${Math.max(...lat).toFixed(1)} ms`;
};

/** A bare ws server in a child process: holds sockets, broadcasts one frame on POST /broadcast. */
async function bareServer(): Promise<{ port: number; pid: number; broadcast(): Promise<void>; stop(): void }> {
  const code = `
    const http = require("node:http");
    const { WebSocketServer } = require(${JSON.stringify(require.resolve("ws"))});
    const server = http.createServer((req, res) => {
      const frame = JSON.stringify({ type: "email.received", data: { subject: "bare", from_address: "a@example.org" } });
      for (const ws of wss.clients) ws.send(frame);
      res.end("ok");
    });
    const wss = new WebSocketServer({ server });
    server.listen(0, "127.0.0.1", () => process.stdout.write(String(server.address().port) + "\\n"));`;
  const child = spawn(process.execPath, ["-e", code], { stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise<number>((resolve) => child.stdout.once("data", (b: Buffer) => resolve(Number(b.toString().trim()))));
  return {
    port,
    pid: child.pid as number,
    broadcast: async () => void (await fetch(`http://127.0.0.1:${port}/broadcast`, { method: "POST" })),
    stop: () => child.kill("SIGKILL"),
  };
}

async function main(): Promise<void> {
  process.stdout.write(`machine: ${machine()}\n${SOCKETS} sockets on one inbox\n`);

  const bare = await bareServer();
  const bareBefore = rssMb(bare.pid);
  const b = await openMany(SOCKETS, () => `ws://127.0.0.1:${bare.port}/`, "email.received");
  const bareAfter = rssMb(bare.pid);
  const bareFrom = performance.now();
  await bare.broadcast();
  await waitAll(b.arrivals, SOCKETS, 30_000);
  process.stdout.write(
    `bare ws server: RSS ${bareBefore.toFixed(0)} -> ${bareAfter.toFixed(0)} MB\n${report("bare broadcast -> frame", bareFrom, b.arrivals)}\n`,
  );
  for (const socket of b.sockets) socket.destroy();
  bare.stop();

  const system = await System.start({ all: { BB_LOG_LEVEL: "warn" }, "api-gateway": { BB_RATE_LIMIT_ENABLED: "false" } });
  try {
    const api = apiClient(system.gatewayUrl);
    const world = await teamWithDomain(api);
    const inbox = await createInbox(api, world.owner.token, world.assignmentId, "fanout");
    const pid = system.pid("realtime-gateway");
    const before = rssMb(pid);
    const ticket = async () => {
      const t = await api<{ ticket: string }>("POST", "/ws/ticket", { token: world.owner.token });
      if (t.status !== 201) throw new Error(`ticket: ${t.status}`);
      return `ws://127.0.0.1:${system.ports["realtime-gateway"]}/api/v1/ws/inboxes/${inbox.id}?ticket=${t.body.ticket}`;
    };
    const opened = Date.now();
    const s = await openMany(SOCKETS, ticket, "email.received");
    const after = rssMb(pid);
    process.stdout.write(
      `realtime-gateway: ${SOCKETS} sockets opened in ${((Date.now() - opened) / 1000).toFixed(1)} s; RSS ${before.toFixed(0)} -> ${after.toFixed(0)} MB (target < 500 MB)\n`,
    );
    const smtp = await SmtpSession.open(system.ports.smtp);
    await smtp.command("MAIL FROM:<fan@example.org>");
    await smtp.command(`RCPT TO:<${inbox.full_address}>`);
    const from = performance.now(); // the message is sent now; its 250 comes once it is stored
    const reply = await smtp.data(buildMessage({ from: "fan@example.org", to: inbox.full_address, subject: "fan-out", text: "x" }));
    if (reply.code !== 250) throw new Error(`SMTP ${reply.code}`);
    await smtp.quit();
    await waitAll(s.arrivals, SOCKETS, 60_000);
    process.stdout.write(`${report("SMTP DATA -> frame, system", from, s.arrivals)}\n`);
    const spread = (xs: number[]) => Math.max(...xs) - Math.min(...xs);
    process.stdout.write(
      `first-to-last socket: system ${spread(s.arrivals).toFixed(1)} ms, bare ${spread(b.arrivals).toFixed(1)} ms (ratio ${(spread(s.arrivals) / spread(b.arrivals)).toFixed(1)}x); memory per socket: system ${(((after - before) * 1024) / SOCKETS).toFixed(1)} KB, bare ${(((bareAfter - bareBefore) * 1024) / SOCKETS).toFixed(1)} KB\n`,
    );
    for (const socket of s.sockets) socket.destroy();
  } finally {
    await system.stop();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
