import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { request } from "node:http";
import path from "node:path";
import { testInfra, waitFor, TEST_INTERNAL_SECRET, TEST_JWT_SECRET } from "@burnbox/test-kit";
import { SharedSystem } from "./shared-system";
import { freePorts } from "./system";
import { newClientIp, roomInWindow } from "./world";

const ROOT = path.resolve(__dirname, "..", "..");

/** One HTTP exchange, from a chosen local address (a peer the gateway does or does not trust). */
function call(
  port: number,
  opts: { method?: string; path: string; body?: unknown; headers?: Record<string, string>; from?: string },
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const body = opts.body === undefined ? undefined : JSON.stringify(opts.body);
    const req = request(
      {
        host: "127.0.0.1",
        port,
        method: opts.method ?? "GET",
        path: opts.path,
        localAddress: opts.from ?? "127.0.0.1",
        headers: { ...(body ? { "content-type": "application/json" } : {}), ...opts.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/**
 * api-gateway as a cluster runs it (deploy/k8s): behind an ingress controller it trusts
 * (BB_RATE_LIMIT_TRUSTED_PROXIES; here the runner at 127.0.0.1 plays that controller) and with
 * /metrics on a port of its own (BB_METRICS_PORT) that the ingress never reaches. A second gateway
 * of the shared system, started here with those two settings, in front of the same services.
 * (The shared gateway trusts the runner too: auth.e2e's "11th login" test counts by X-Forwarded-For.)
 */
describe("api-gateway behind an ingress controller", () => {
  const system = SharedSystem.attach();
  let gateway: ChildProcess;
  let httpPort = 0;
  let metricsPort = 0;
  const logs: string[] = [];

  beforeAll(async () => {
    [httpPort, metricsPort] = (await freePorts(2)) as [number, number];
    const upstream = (p: "identity" | "tenancy" | "inbox" | "webhook-dispatcher" | "realtime-gateway") =>
      system.portsOfEverySet.map((ports) => `http://127.0.0.1:${ports[p]}`).join(",");
    gateway = spawn(process.execPath, ["--enable-source-maps", "dist/main.js"], {
      cwd: path.join(ROOT, "services", "api-gateway"),
      env: {
        PATH: process.env.PATH ?? "",
        NODE_ENV: "test",
        BB_LOG_LEVEL: "warn",
        BB_HTTP_HOST: "127.0.0.1",
        BB_HTTP_PORT: String(httpPort),
        BB_METRICS_PORT: String(metricsPort),
        BB_RATE_LIMIT_TRUSTED_PROXIES: "127.0.0.1",
        REDIS_URL: testInfra.redisUrl,
        NATS_URL: testInfra.natsUrl,
        BB_NATS_NAMESPACE: system.namespace,
        BB_REDIS_KEY_PREFIX: `${system.namespace}:`,
        BB_INTERNAL_SECRET: TEST_INTERNAL_SECRET,
        BB_AUTH_JWT_SECRET: TEST_JWT_SECRET,
        BB_SERVICES_IDENTITY_URL: upstream("identity"),
        BB_SERVICES_TENANCY_URL: upstream("tenancy"),
        BB_SERVICES_INBOX_URL: upstream("inbox"),
        BB_SERVICES_WEBHOOK_DISPATCHER_URL: upstream("webhook-dispatcher"),
        BB_SERVICES_REALTIME_GATEWAY_URL: upstream("realtime-gateway"),
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    gateway.stdout?.on("data", (c: Buffer) => logs.push(c.toString("utf8")));
    gateway.stderr?.on("data", (c: Buffer) => logs.push(c.toString("utf8")));
    await waitFor(
      async () => {
        if (gateway.exitCode !== null) throw new Error(`api-gateway exited:\n${logs.join("")}`);
        return (await call(httpPort, { path: "/readyz" }).catch(() => ({ status: 0 }))).status === 200;
      },
      { timeoutMs: 30_000, intervalMs: 100, what: "the second api-gateway to be ready" },
    );
  });

  afterAll(async () => {
    if (gateway && gateway.exitCode === null) {
      const exited = new Promise((r) => gateway.once("exit", r));
      gateway.kill("SIGTERM");
      await exited;
    }
  });

  /** Ten logins (unknown accounts: 401 each) and an eleventh, each from `from` with the X-Forwarded-For `xff(i)`. */
  const elevenLogins = async (from: string, xff: (i: number) => string) => {
    await roomInWindow(60_000, 10_000); // all eleven in one minute window
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const r = await call(httpPort, {
        method: "POST",
        path: "/api/v1/auth/login",
        body: { email: `nobody-${randomBytes(4).toString("hex")}@example.test`, password: "Wrong-Password-1" },
        headers: { "x-forwarded-for": xff(i) },
        from,
      });
      statuses.push(r.status);
    }
    return statuses;
  };

  it("when the trusted proxy forwards eleven logins of one client, then that client's 11th is 429 and another client of the same proxy is not limited", async () => {
    const client = newClientIp();
    const statuses = await elevenLogins("127.0.0.1", () => client);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses[10]).toBe(429);
    // the proxy's other clients keep their own budget (each login from a new client address)
    expect(await elevenLogins("127.0.0.1", () => newClientIp())).toEqual(Array(11).fill(401));
  });

  it("when an untrusted peer sends X-Forwarded-For, then it is ignored: eleven logins with eleven claimed addresses are counted as one peer's", async () => {
    // a loopback address of its own that the gateway does not trust (only 127.0.0.1 is)
    const [b, c] = randomBytes(2);
    const peer = `127.88.${b}.${Math.max(1, c ?? 1)}`;
    const statuses = await elevenLogins(peer, () => newClientIp());
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses[10]).toBe(429);
  });

  it("when metrics.port is set, then /metrics is served there (and nothing else is), and the HTTP port answers /metrics 404 even to loopback", async () => {
    const scraped = await call(metricsPort, { path: "/metrics" });
    expect(scraped.status).toBe(200);
    expect(scraped.text).toMatch(/^http_request_duration_seconds_count\{.*service="api-gateway".*\} \d+/m);
    // the 429s above were counted by this process (anonymous callers: bucket "ip")
    expect(scraped.text).toMatch(/^burnbox_rate_limit_refusals_total\{bucket="ip".*\} [1-9]/m);
    expect((await call(metricsPort, { path: "/api/v1/auth/me" })).status).toBe(404);
    expect((await call(metricsPort, { path: "/healthz" })).status).toBe(404);

    const proxied = await call(httpPort, { path: "/metrics" });
    expect(proxied.status).toBe(404);
    expect(JSON.parse(proxied.text)).toEqual({ error: expect.any(String), code: "not_found" });
    expect((await call(httpPort, { path: "/readyz" })).status).toBe(200);
  });
});
