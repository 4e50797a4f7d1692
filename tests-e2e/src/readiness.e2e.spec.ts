import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { TEST_INTERNAL_SECRET, TEST_JWT_SECRET, testInfra, waitFor } from "@burnbox/test-kit";
import { apiClient } from "./clients";
import { SharedSystem } from "./shared-system";
import { freePorts } from "./system";
import { registerUser } from "./world";

const GATEWAY_ENTRY = path.resolve(__dirname, "..", "..", "services", "api-gateway", "dist", "main.js");

/**
 * Readiness reports what a process cannot serve without, and SIGTERM drains (issue 24, part 3).
 * One extra gateway joins the shared system's namespace and upstreams, pointed at a Redis port
 * nobody listens on, so the shared Redis is never stopped.
 */
describe("a gateway whose Redis is unreachable", () => {
  const system = SharedSystem.attach();
  let child: ChildProcess | null = null;
  let url = "";
  const logs: string[] = [];

  beforeAll(async () => {
    // a port that was free a moment ago: nothing listens there
    const [port, deadRedis] = (await freePorts(2)) as [number, number];
    url = `http://127.0.0.1:${port}`;
    const upstream = (p: number) => `http://127.0.0.1:${p}`;
    child = spawn(process.execPath, ["--enable-source-maps", GATEWAY_ENTRY], {
      env: {
        PATH: process.env.PATH ?? "",
        NODE_ENV: "test",
        BB_HTTP_HOST: "127.0.0.1",
        BB_HTTP_PORT: String(port),
        REDIS_URL: `redis://127.0.0.1:${deadRedis}`,
        NATS_URL: testInfra.natsUrl,
        BB_NATS_NAMESPACE: system.namespace,
        BB_REDIS_KEY_PREFIX: `${system.namespace}:`,
        BB_INTERNAL_SECRET: TEST_INTERNAL_SECRET,
        BB_AUTH_JWT_SECRET: TEST_JWT_SECRET,
        BB_RATE_LIMIT_TRUSTED_PROXIES: "127.0.0.1,::1",
        BB_SERVICES_IDENTITY_URL: upstream(system.ports.identity),
        BB_SERVICES_TENANCY_URL: upstream(system.ports.tenancy),
        BB_SERVICES_INBOX_URL: upstream(system.ports.inbox),
        BB_SERVICES_WEBHOOK_DISPATCHER_URL: upstream(system.ports["webhook-dispatcher"]),
        BB_SERVICES_REALTIME_GATEWAY_URL: upstream(system.ports["realtime-gateway"]),
        // long enough to see readiness fail while the process still serves
        BB_SHUTDOWN_DRAIN_DELAY: "2s",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const collect = (b: Buffer) => logs.push(b.toString("utf8"));
    child.stdout?.on("data", collect);
    child.stderr?.on("data", collect);
    await waitFor(
      async () => {
        if (child?.exitCode !== null) throw new Error(`the extra gateway exited:\n${logs.join("")}`);
        return (await fetch(`${url}/healthz`).catch(() => null))?.status === 200;
      },
      { what: "the extra gateway to listen", timeoutMs: 30_000, intervalMs: 100 },
    );
  }, 40_000);

  afterAll(() => {
    if (child && child.exitCode === null) child.kill("SIGKILL");
  });

  it("when Redis is down, then the gateway stays ready and serves (its own fallback), and on SIGTERM readiness fails at once while requests are still served, then it exits", async () => {
    const ready = await fetch(`${url}/readyz`);
    const body = (await ready.json()) as { status: string; checks: Record<string, string> };
    expect({ status: ready.status, body }).toMatchObject({ status: 200, body: { status: "ok" } });
    expect(body.checks.redis).toBeUndefined();
    // a real request through it: registration (rate-limited, with Redis down the gateway's fallback counts)
    const user = await registerUser(apiClient(url), "redis-down");
    expect(user.token).toEqual(expect.any(String));

    const proc = child as ChildProcess;
    const exited = new Promise<number | null>((r) => proc.once("exit", (code) => r(code)));
    proc.kill("SIGTERM");
    await waitFor(async () => (await fetch(`${url}/readyz`)).status === 503, {
      what: "readiness to fail after SIGTERM",
      timeoutMs: 1_500,
      intervalMs: 20,
    });
    // still serving while the endpoints drop it
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    expect(await exited).toBe(0);
  }, 30_000);
});
