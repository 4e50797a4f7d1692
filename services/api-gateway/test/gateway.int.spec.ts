import { createServer, get as httpGet, request as httpRequest, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { randomBytes, randomUUID, createHash } from "node:crypto";
import jwt from "jsonwebtoken";
import SwaggerParser from "@apidevtools/swagger-parser";
import { redisKeys, type InternalContext, type ResolvedApiKey } from "@burnbox/contracts";
import { serveRpc } from "@burnbox/service-kit/messaging";
import { startInfra, type Infra } from "@burnbox/service-kit/runtime";
import { verifyInternalContext, INTERNAL_CONTEXT_HEADER } from "@burnbox/service-kit/security";
import { uniqueNamespace, TEST_INTERNAL_SECRET, TEST_JWT_SECRET } from "@burnbox/test-kit";
import { startService, type RunningService } from "../src/app";
import type { GatewayConfig } from "../src/config";
import type { UpstreamService } from "../src/http/route-table";
import { gatewayTestConfig } from "./gateway-config";

interface Seen {
  service: UpstreamService;
  method: string;
  url: string;
  context: InternalContext | null;
  headers: IncomingMessage["headers"];
}

const UPSTREAMS = ["identity", "tenancy", "inbox", "webhook-dispatcher", "realtime-gateway"] as const satisfies UpstreamService[];

/** A stand-in for one downstream service: records what the gateway forwarded to it. */
function startUpstream(service: UpstreamService, seen: Seen[]): Promise<Server> {
  const server = createServer((req, res) => {
    const header = req.headers[INTERNAL_CONTEXT_HEADER];
    seen.push({
      service,
      method: req.method ?? "",
      url: req.url ?? "",
      context: typeof header === "string" ? verifyInternalContext(header, TEST_INTERNAL_SECRET) : null,
      headers: req.headers,
    });
    req.resume();
    req.on("end", () => {
      res.setHeader("content-type", "application/json");
      if (req.url?.includes("limited-by-service")) {
        // a service's own limit (the demo's per-IP quota, say): 7.2 body and Retry-After
        res.statusCode = 429;
        res.setHeader("retry-after", "30");
        res.end(JSON.stringify({ error: "too many", retry_after: 30 }));
        return;
      }
      res.end(JSON.stringify({ ok: true }));
    });
  });
  return new Promise((r) => server.listen(0, "127.0.0.1", () => r(server)));
}

const TEAM = randomUUID();
const CREATOR = randomUUID();

describe("api-gateway", () => {
  const seen: Seen[] = [];
  const keys = new Map<string, ResolvedApiKey>();
  const revokedInIdentity = new Set<string>();
  const statusAsked: string[] = [];
  let upstreams: Server[];
  let infra: Infra;
  let gw: RunningService;
  let base: string;
  let config: GatewayConfig;

  const makeKey = (over: Partial<ResolvedApiKey> = {}) => {
    const raw = `bb_${randomBytes(32).toString("hex")}`;
    const key: ResolvedApiKey = {
      id: randomUUID(),
      team_id: TEAM,
      scopes: ["team.inboxes.view"],
      is_active: true,
      expires_at: null,
      revoked_at: null,
      allowed_ips: [],
      creator: { user_id: CREATOR, email: "creator@example.test" },
      ...over,
    };
    keys.set(createHash("sha256").update(raw).digest("hex"), key);
    return { raw, key };
  };
  const token = (over: Record<string, unknown> = {}) =>
    jwt.sign(
      {
        sub: randomUUID(),
        email: "u@example.test",
        is_system_admin: false,
        sid: randomUUID(),
        jti: randomUUID(),
        exp: Math.floor(Date.now() / 1000) + 900,
        ...over,
      },
      TEST_JWT_SECRET,
      { algorithm: "HS256" },
    );

  beforeAll(async () => {
    upstreams = await Promise.all(UPSTREAMS.map((service) => startUpstream(service, seen)));
    const [identity, tenancy, inbox, webhooks, realtime] = upstreams.map((u) => `http://127.0.0.1:${(u.address() as AddressInfo).port}`);
    const ns = uniqueNamespace();
    config = gatewayTestConfig(ns, {
      "http.port": 0,
      "http.host": "127.0.0.1",
      "services.identity_url": identity,
      "services.tenancy_url": tenancy,
      "services.inbox_url": inbox,
      "services.webhook_dispatcher_url": webhooks,
      "services.realtime_gateway_url": realtime,
      "rate_limit.unauthenticated_per_minute": 25,
      "rate_limit.login_per_minute": 3,
    });
    infra = await startInfra({ config, redis: true });
    serveRpc(infra.nc, ns, "identity.resolve_api_key", async ({ key_hash }) => ({ key: keys.get(key_hash) ?? null }), infra.logger);
    // identity's part: the revocation list in Redis is complete (its seeded mark), and it answers
    // the session-status question from its own records when Redis cannot
    await infra.redis?.set(redisKeys.revocationsSeeded(`${ns}:`), "1");
    serveRpc(
      infra.nc,
      ns,
      "identity.session_status",
      async ({ session_id }) => {
        statusAsked.push(session_id);
        if (session_id.startsWith("broken")) throw new Error("identity failed");
        return { revoked: revokedInIdentity.has(session_id) };
      },
      infra.logger,
    );
    gw = await startService(config, infra);
    base = `http://127.0.0.1:${gw.port}`;
  });

  afterAll(async () => {
    await gw.stop();
    await infra.close();
    await Promise.all(upstreams.map((u) => new Promise((r) => u.close(r))));
  });

  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${base}${path}`, { headers });
  /** A GET sent from a given loopback address (127.0.0.0/8), so it is counted in that IP's windows. */
  const getFrom = (localAddress: string, path: string, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; headers: IncomingMessage["headers"] }>((resolve, reject) => {
      httpGet(`${base}${path}`, { headers, localAddress, agent: false }, (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
      }).on("error", reject);
    });

  it("when the OpenAPI document is fetched, then it is valid OpenAPI 3.0 and describes an operation with its API-key scope", async () => {
    const res = await get("/api/v1/docs/openapi.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    const doc = (await res.json()) as { openapi: string; paths: Record<string, Record<string, Record<string, unknown>>> };
    expect(doc.openapi).toMatch(/^3\.0\./);
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeDefined();
    expect(doc.paths["/inboxes"]?.post).toMatchObject({
      operationId: "createInbox",
      description: expect.stringMatching(/API keys need the scope `team\.inboxes\.create`\.$/),
      security: [{ bearer: [] }],
    });
    expect(doc.paths["/docs/openapi.json"]?.get).toMatchObject({ operationId: "getOpenApi" });
    expect(doc.paths["/docs/openapi.json"]?.get).not.toHaveProperty("security");
    expect(seen.filter((s) => s.url.includes("/docs"))).toEqual([]);
  });

  it("when the docs page is requested, then an HTML page that loads the document is served under a strict CSP", async () => {
    const res = await get("/api/v1/docs");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    expect(res.headers.get("content-security-policy")).toContain("default-src 'self'");
    expect(await res.text()).toContain("docs/assets/swagger-ui-bundle.js");
    expect((await get("/api/v1/docs/assets/swagger-ui-bundle.js")).status).toBe(200);
    const init = await get("/api/v1/docs/assets/init.js");
    expect(init.headers.get("content-type")).toContain("javascript");
    expect(await init.text()).toContain('url: "docs/openapi.json"');
  });

  it("when the docs page is asked with a trailing slash, then it redirects to the slash-less page its asset URLs need", async () => {
    const res = await fetch(`${base}/api/v1/docs/`, { redirect: "manual" });
    expect(res.status).toBe(301);
    expect(res.headers.get("location")).toBe("../docs");
  });

  it("when an operation of each service is called, then the service that owns it receives it", async () => {
    const jwt = { authorization: `Bearer ${token()}` };
    const calls: Array<[UpstreamService, string, string]> = [
      ["identity", "GET", "/api/v1/auth/sso-status"],
      ["tenancy", "GET", `/api/v1/orgs/${randomUUID()}`],
      ["inbox", "GET", `/api/v1/inboxes/${randomUUID()}`],
      ["webhook-dispatcher", "GET", `/api/v1/orgs/${randomUUID()}/teams/${TEAM}/webhooks`],
      ["realtime-gateway", "POST", "/api/v1/ws/ticket"],
    ];
    for (const [service, method, path] of calls) {
      const res = await fetch(`${base}${path}`, { method, headers: jwt });
      expect(res.status).toBe(200);
      expect(seen[seen.length - 1]).toMatchObject({ service, method, url: path });
    }
  });

  it("when any response is sent, then it carries the rate-limit, request-id and security headers", async () => {
    for (const path of ["/healthz", "/api/v1/nope", "/nope", "/api/v1/docs/openapi.json"]) {
      const res = await get(path);
      expect(res.headers.get("x-ratelimit-limit")).toMatch(/^\d+$/);
      expect(res.headers.get("x-ratelimit-remaining")).toMatch(/^\d+$/);
      expect(Number(res.headers.get("x-ratelimit-reset"))).toBeGreaterThan(Date.now() / 1000 - 1);
      expect(res.headers.get("x-request-id")).toBeTruthy();
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("cache-control")).toBe("no-store");
    }
  });

  it("when a route does not exist, then 404 in the error envelope", async () => {
    const res = await get("/api/v1/does-not-exist");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: "route not found", code: "not_found" });
  });

  it("when a protected route is called without credentials, then 401 unauthenticated", async () => {
    const res = await get("/api/v1/inboxes");
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: "unauthenticated" });
  });

  it("when a valid JWT calls a route, then the owning service receives a signed context with the actor", async () => {
    const sub = randomUUID();
    const res = await get("/api/v1/inboxes?page=1", { authorization: `Bearer ${token({ sub })}`, "x-bb-internal-context": "forged" });
    expect(res.status).toBe(200);
    const last = seen[seen.length - 1] as Seen;
    expect(last).toMatchObject({ service: "inbox", url: "/api/v1/inboxes?page=1" });
    expect(last.context?.actor?.user_id).toBe(sub);
    expect(last.headers.authorization).toBeUndefined();
    expect(res.headers.get("x-ratelimit-limit")).toBe("300");
  });

  it("when a JWT is signed with another secret or expired, then 401", async () => {
    const forged = jwt.sign({ sub: randomUUID(), email: "x", is_system_admin: true, sid: "s" }, "another-secret-another-secret-0000", {
      algorithm: "HS256",
    });
    expect((await get("/api/v1/inboxes", { authorization: `Bearer ${forged}` })).status).toBe(401);
    const expired = token({ exp: Math.floor(Date.now() / 1000) - 10 });
    expect((await get("/api/v1/inboxes", { authorization: `Bearer ${expired}` })).status).toBe(401);
  });

  it("when the session of a token was revoked, then the token is refused at once", async () => {
    const sid = randomUUID();
    await infra.redis?.set(`${config.redis.key_prefix}session:revoked:${sid}`, "1", "EX", 60);
    const res = await get("/api/v1/inboxes", { authorization: `Bearer ${token({ sid })}` });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: "session revoked", code: "unauthenticated" });
  });

  it("when the revocation list is complete in Redis, then a live session is admitted without asking identity", async () => {
    const sid = randomUUID();
    expect((await get("/api/v1/inboxes", { authorization: `Bearer ${token({ sid })}` })).status).toBe(200);
    expect(statusAsked).not.toContain(sid);
  });

  it("when Redis has lost its revocations (no seeded mark), then identity decides: its revoked session is refused, a live one admitted", async () => {
    const mark = redisKeys.revocationsSeeded(config.redis.key_prefix);
    await infra.redis?.del(mark);
    try {
      const revoked = randomUUID();
      revokedInIdentity.add(revoked);
      const res = await get("/api/v1/inboxes", { authorization: `Bearer ${token({ sid: revoked })}` });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: "session revoked", code: "unauthenticated" });
      const live = randomUUID();
      expect((await get("/api/v1/inboxes", { authorization: `Bearer ${token({ sid: live })}` })).status).toBe(200);
      expect(statusAsked).toEqual(expect.arrayContaining([revoked, live]));
    } finally {
      await infra.redis?.set(mark, "1");
    }
  });

  it("when neither Redis's list nor identity can answer, then the token is refused with 503 rather than let through", async () => {
    const mark = redisKeys.revocationsSeeded(config.redis.key_prefix);
    await infra.redis?.del(mark);
    try {
      const res = await get("/api/v1/inboxes", { authorization: `Bearer ${token({ sid: `broken-${randomUUID()}` })}` });
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ error: "authentication temporarily unavailable", code: "error" });
    } finally {
      await infra.redis?.set(mark, "1");
    }
  });

  it("when a service refuses with its own 429, then the client gets its body and Retry-After with X-RateLimit-Remaining 0", async () => {
    const res = await get("/api/v1/inboxes?q=limited-by-service", { authorization: `Bearer ${token()}` });
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("30");
    expect(res.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(res.headers.get("x-ratelimit-limit")).not.toBeNull();
    expect(await res.json()).toEqual({ error: "too many", retry_after: 30 });
  });

  describe("API keys (spec 5.2)", () => {
    const call = (raw: string, path = "/api/v1/inboxes") => get(path, { authorization: `Bearer ${raw}` });

    it.each([
      ["an unknown key", () => `bb_${randomBytes(32).toString("hex")}`, 401, "invalid API key"],
      ["a malformed key", () => "bb_nothex", 401, "invalid API key"],
      ["an expired key", () => makeKey({ expires_at: new Date(Date.now() - 1000).toISOString() }).raw, 401, "API key expired"],
      ["a revoked key", () => makeKey({ revoked_at: new Date().toISOString() }).raw, 401, "API key revoked"],
      ["a disabled key", () => makeKey({ is_active: false }).raw, 401, "API key disabled"],
      [
        "a key bound to other IPs",
        () => makeKey({ allowed_ips: ["203.0.113.0/24", "2001:db8::/32"] }).raw,
        403,
        "IP not allowed for this API key",
      ],
    ])("when %s is used, then it gets the 5.2 status and message", async (_name, raw, status, message) => {
      const res = await call(raw());
      expect(res.status).toBe(status);
      expect(await res.json()).toEqual({ error: message, code: status === 401 ? "unauthenticated" : "forbidden" });
    });

    it("when a key lacks the route's scope, then 403 insufficient scope", async () => {
      const { raw } = makeKey({ scopes: ["team.inboxes.view"] });
      const res = await fetch(`${base}/api/v1/orgs/${randomUUID()}/teams/${TEAM}/webhooks`, {
        method: "POST",
        headers: { authorization: `Bearer ${raw}`, "content-type": "application/json" },
        body: JSON.stringify({ url: "https://example.com/hook", events: ["email.received"] }),
      });
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ error: "insufficient scope", code: "forbidden" });
    });

    it("when a key is allowed from loopback by CIDR, then it acts as its creator without admin rights and usage is counted", async () => {
      const { raw, key } = makeKey({ allowed_ips: ["127.0.0.0/8", "::1/128"] });
      for (let i = 0; i < 3; i++) expect((await call(raw)).status).toBe(200);
      const ctx = (seen[seen.length - 1] as Seen).context;
      expect(ctx?.actor).toMatchObject({ user_id: CREATOR, is_system_admin: false, api_key: { id: key.id, team_id: TEAM } });
      const usage = await infra.redis?.hgetall(`${config.redis.key_prefix}apikey:usage:${key.id}`);
      expect(usage).toMatchObject({ count: "3", last_used_ip: "127.0.0.1" });
    });
  });

  it("when many requests arrive at once (their Redis work batched together), then each is counted once and checked on its own", async () => {
    const { raw, key } = makeKey({ creator: { user_id: randomUUID(), email: "batch@example.test" } });
    const sid = randomUUID();
    const live = token();
    const revoked = token({ sid });
    await infra.redis?.set(redisKeys.revokedSession(config.redis.key_prefix, sid), "1");
    // interleaved, all sent at once: 10 with the key, 10 with a live token, 4 with a revoked one,
    // from a loopback address of their own (a refused request counts in its IP's anonymous window)
    const twelve = [raw, live, raw, live, raw, revoked, live, raw, live, raw, live, revoked];
    const credentials = [...twelve, ...twelve];
    const answers = await Promise.all(credentials.map((c) => getFrom("127.0.0.42", "/api/v1/inboxes", { authorization: `Bearer ${c}` })));
    const of = (c: string) => answers.filter((_, i) => credentials[i] === c);
    expect(of(revoked).map((r) => r.status)).toEqual([401, 401, 401, 401]);
    expect([...of(raw), ...of(live)].map((r) => r.status)).toEqual(Array(20).fill(200));
    // one window per user: each request of the key's creator, and of the token's user, counted once (300 a minute)
    for (const c of [raw, live]) {
      const remaining = of(c).map((r) => Number(r.headers["x-ratelimit-remaining"]));
      expect(remaining.sort((a, b) => a - b)).toEqual(Array.from({ length: 10 }, (_, i) => 290 + i));
    }
    // and the anonymous window of that address counted the 4 refused ones
    const after = await getFrom("127.0.0.42", "/api/v1/nope");
    expect(after.headers["x-ratelimit-remaining"]).toBe(String(config.rate_limit.unauthenticated_per_minute - 5));
    const usage = await infra.redis?.hgetall(`${config.redis.key_prefix}apikey:usage:${key.id}`);
    expect(usage).toMatchObject({ count: "10" });
  });

  it("when the unauthenticated limit is exceeded, then 429 carries the 7.2 body and Retry-After", async () => {
    const ip = "198.51.100.77";
    // Only trusted peers may name a client IP; this gateway trusts nobody, so use a fresh gateway that trusts loopback.
    const cfg = {
      ...config,
      http: { ...config.http, port: 0 },
      rate_limit: { ...config.rate_limit, trusted_proxies: ["127.0.0.1"], unauthenticated_per_minute: 2 },
    };
    const gw2 = await startService(cfg, infra);
    try {
      const hit = () => fetch(`http://127.0.0.1:${gw2.port}/api/v1/docs/openapi.json`, { headers: { "x-forwarded-for": ip } });
      await hit();
      await hit();
      const res = await hit();
      expect(res.status).toBe(429);
      const retry = Number(res.headers.get("retry-after"));
      expect(retry).toBeGreaterThanOrEqual(1);
      expect(await res.json()).toEqual({ error: "rate limit exceeded", retry_after: retry });
      expect(res.headers.get("x-ratelimit-remaining")).toBe("0");
      const other = await fetch(`http://127.0.0.1:${gw2.port}/api/v1/docs/openapi.json`, {
        headers: { "x-forwarded-for": "198.51.100.78" },
      });
      expect(other.status).toBe(200);
    } finally {
      await gw2.stop();
    }
  });

  it("when an untrusted peer sends X-Forwarded-For, then it is ignored for counting", async () => {
    const before = await get("/api/v1/docs/openapi.json", { "x-forwarded-for": "192.0.2.1" });
    const after = await get("/api/v1/docs/openapi.json", { "x-forwarded-for": "192.0.2.2" });
    expect(Number(after.headers.get("x-ratelimit-remaining"))).toBe(Number(before.headers.get("x-ratelimit-remaining")) - 1);
  });

  it("when logins exceed the per-IP login limit, then the login bucket answers 429", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await fetch(`${base}/api/v1/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
    expect(statuses[3]).toBe(429);
  });

  it("when a body is larger than 1 MiB, then 413 in the envelope", async () => {
    const res = await fetch(`${base}/api/v1/auth/register`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token()}` },
      body: JSON.stringify({ pad: "x".repeat(1024 * 1024 + 10) }),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: "request body too large", code: "error" });
  });

  it("when a forwarded operation is served by the forwarding lane (outside express's application), then it answers as express does", async () => {
    const id = randomUUID();
    // a refusal from the lane, and the same from express (a HEAD of a forwarded route goes that way)
    // (from an address of its own: the anonymous window of 127.0.0.1 is spent by now)
    const from = (method: string) =>
      new Promise<{ status: number; headers: IncomingMessage["headers"]; body: string }>((resolve, reject) => {
        const req = httpRequest(`${base}/api/v1/inboxes/${id}`, { method, localAddress: "127.0.0.77", agent: false }, (res) => {
          let body = "";
          res.setEncoding("utf8");
          res.on("data", (c: string) => (body += c));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        });
        req.on("error", reject);
        req.end();
      });
    const lane = await from("GET");
    const viaExpress = await from("HEAD");
    expect(lane.status).toBe(401);
    expect(viaExpress.status).toBe(401);
    const body = lane.body;
    expect(JSON.parse(body)).toEqual({ error: expect.any(String), code: "unauthenticated" });
    for (const name of [
      "content-type",
      "content-length",
      "cache-control",
      "x-content-type-options",
      "x-frame-options",
      "referrer-policy",
    ]) {
      expect([name, lane.headers[name]]).toEqual([name, viaExpress.headers[name]]);
    }
    expect(lane.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(Number(lane.headers["content-length"])).toBe(Buffer.byteLength(body));
    for (const name of ["x-request-id", "x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"]) {
      expect(lane.headers[name]).toMatch(/^[\w-]+$/);
      expect(viaExpress.headers[name]).toMatch(/^[\w-]+$/);
    }
    expect(lane.headers["x-request-id"]).not.toBe(viaExpress.headers["x-request-id"]);
    // each counted once in that address's window
    expect(Number(viaExpress.headers["x-ratelimit-remaining"])).toBe(Number(lane.headers["x-ratelimit-remaining"]) - 1);

    // served: forwarded as the client sent it, and timed under the route's pattern
    const { raw } = makeKey();
    const timed = async () => {
      const text = await (await get("/metrics")).text();
      const line = text
        .split("\n")
        .find(
          (l) =>
            l.startsWith("http_request_duration_seconds_count{") &&
            l.includes('route="/api/v1/inboxes/:id"') &&
            l.includes('method="GET"') &&
            l.includes('status="200"'),
        );
      return Number(line?.split(" ").pop() ?? 0);
    };
    const before = await timed();
    const ok = await get(`/api/v1/inboxes/${id}?x=1`, { authorization: `Bearer ${raw}` });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ ok: true });
    expect(seen[seen.length - 1]).toMatchObject({ service: "inbox", method: "GET", url: `/api/v1/inboxes/${id}?x=1` });
    expect(await timed()).toBe(before + 1);
    const head = await fetch(`${base}/api/v1/inboxes/${id}`, { method: "HEAD", headers: { authorization: `Bearer ${raw}` } });
    expect(head.status).toBe(200);
    expect(seen[seen.length - 1]).toMatchObject({ service: "inbox", method: "HEAD", url: `/api/v1/inboxes/${id}` });
  });

  it("when /metrics is asked from loopback, then Prometheus text is served", async () => {
    const res = await get("/metrics");
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("http_request_duration_seconds");
  });

  it("when metrics are disabled, then /metrics is 404", async () => {
    const gw3 = await startService({ ...config, http: { ...config.http, port: 0 }, metrics: { ...config.metrics, enabled: false } }, infra);
    try {
      expect((await fetch(`http://127.0.0.1:${gw3.port}/metrics`)).status).toBe(404);
    } finally {
      await gw3.stop();
    }
  });

  it("when readiness is asked, then NATS is reported and Redis is not (the gateway serves without Redis)", async () => {
    const res = await get("/readyz");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok", checks: { nats: "ok" } });
  });
});
