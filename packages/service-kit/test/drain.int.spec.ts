import { Agent, request, type IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import { Drain } from "../src/core/drain";
import { mountHealth } from "../src/http/health";
import { createHttpApp, finalizeHttpApp, listen, type RunningServer } from "../src/http/http";
import { createLogger } from "../src/core/logger";

const logger = createLogger({ level: "silent", service: "test" });

interface Answer {
  status: number;
  headers: IncomingMessage["headers"];
  body: string;
}

/** One GET over a real socket (a fresh connection unless `agent` keeps one alive). */
function get(port: number, path: string, agent?: Agent): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, ...(agent ? { agent } : { agent: false }) }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

function deferred<T = void>(): { promise: Promise<T>; resolve: (v: T) => void } {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** A server whose `/slow` answers only when the test says so, with readiness mounted as services do. */
async function serve(drain: Drain) {
  const slowArrived = deferred();
  const release = deferred();
  const app = createHttpApp({ logger });
  mountHealth(app, { always: async () => undefined }, { drain });
  app.get("/fast", (_req, res) => {
    res.json({ ok: true });
  });
  app.get("/slow", async (_req, res) => {
    slowArrived.resolve();
    await release.promise;
    res.json({ finished: true });
  });
  finalizeHttpApp(app, logger);
  const server = await listen(app, 0, "127.0.0.1", { drainTimeoutMs: drain.settings.timeoutMs });
  return { server, slowArrived: slowArrived.promise, release: () => release.resolve() };
}

describe("a draining process (SIGTERM: runService runs Drain.shutdown)", () => {
  let server: RunningServer | undefined;
  afterEach(async () => {
    server?.server.closeAllConnections();
    await new Promise((r) => server?.server.close(r) ?? r(undefined));
  });

  it("fails readiness at once, keeps serving through the delay, then lets an in-flight request finish and refuses new connections", async () => {
    const drain = new Drain({ delayMs: 300, timeoutMs: 10_000 });
    const s = await serve(drain);
    server = s.server;
    const port = server.port;
    expect((await get(port, "/readyz")).status).toBe(200);

    // an idle keep-alive connection, and a request in flight
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    expect((await get(port, "/fast", agent)).status).toBe(200);
    const idle = Object.values(agent.freeSockets).flat()[0] as Socket;
    expect(idle).toBeDefined();
    const idleClosed = new Promise((r) => idle.once("close", r));
    const slow = get(port, "/slow");
    await s.slowArrived;

    const drained = deferred();
    drain.onDrain(() => drained.resolve());
    const stopped = drain.shutdown(() => s.server.close());

    // readiness fails from the first moment, while requests are still served (the endpoints have not dropped us yet)
    const ready = await get(port, "/readyz");
    expect(ready.status).toBe(503);
    expect(JSON.parse(ready.body)).toMatchObject({ status: "draining" });
    expect((await get(port, "/fast")).status).toBe(200);

    // after the delay the drain hooks run and the server stops accepting; the idle socket is closed
    await drained.promise;
    await idleClosed;
    await new Promise((r) => setImmediate(r));
    await expect(get(port, "/fast")).rejects.toMatchObject({ code: "ECONNREFUSED" });

    // the in-flight request still completes, told that its connection closes
    s.release();
    const answer = await slow;
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ finished: true });
    expect(answer.headers.connection).toBe("close");
    await stopped;
    expect(s.server.server.listening).toBe(false);
    agent.destroy();
  });

  it("cuts a request still running at the drain timeout, so shutdown ends", async () => {
    const drain = new Drain({ delayMs: 0, timeoutMs: 200 });
    const s = await serve(drain);
    server = s.server;
    const hanging = get(server.port, "/slow");
    await s.slowArrived;
    const started = Date.now();
    await drain.shutdown(() => s.server.close());
    expect(Date.now() - started).toBeLessThan(5_000);
    await expect(hanging).rejects.toMatchObject({ code: "ECONNRESET" });
    s.release();
  });

  it("runs each registered hook once when draining starts, and never one that was removed", async () => {
    const drain = new Drain({ delayMs: 0, timeoutMs: 200 });
    const calls: string[] = [];
    drain.onDrain(() => void calls.push("kept"));
    const remove = drain.onDrain(() => void calls.push("removed"));
    remove();
    await drain.shutdown(async () => undefined);
    await new Promise((r) => setImmediate(r));
    expect(calls).toEqual(["kept"]);
    expect(drain.draining).toBe(true);
  });
});
