import { createHmac, randomBytes } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { waitFor } from "@burnbox/test-kit";
import { apiClient, sendMail } from "./clients";
import { System } from "./system";
import { createInbox, teamWithDomain, type Api } from "./world";

interface Hit {
  headers: IncomingHttpHeaders;
  raw: Buffer;
  at: number;
}
interface Delivered {
  hit: Hit;
  deliveryId: string;
  event: string;
  body: { id: string; event: string; timestamp: string; data: Record<string, unknown> };
}
interface Hook {
  id: string;
  secret: string;
  failure_count: number;
  active: boolean;
}
interface LogEntry {
  id: string;
  webhook_id: string;
  delivery_id: string;
  event: string;
  attempt: number;
  success: boolean;
  response_status: number | null;
  response_time_ms: number;
  error: string | null;
  created_at: string;
}
interface PageOf<T> {
  data: T[];
  total: number;
  page: number;
  per_page: number;
  total_pages: number;
}
interface Stats {
  total_deliveries: number;
  success_count: number;
  failure_count: number;
  success_rate: number;
  avg_response_time_ms: number;
  last_delivery_at: string | null;
}

/**
 * A local receiver whose n-th answer (1-based) is scripted: a status, or "hang" to never answer
 * (the dispatcher's timeout cuts the attempt). The WebhookReceiver of clients.ts only picks statuses.
 */
class Receiver {
  readonly hits: Hit[] = [];
  answer: (n: number) => number | "hang" = () => 200;
  private constructor(private readonly server: Server) {}

  static async start(): Promise<Receiver> {
    const holder: { self?: Receiver } = {};
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const self = holder.self as Receiver;
        self.hits.push({ headers: req.headers, raw: Buffer.concat(chunks), at: Date.now() });
        const a = self.answer(self.hits.length);
        if (a === "hang") return;
        res.statusCode = a;
        res.end("ok");
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
    holder.self = new Receiver(server);
    return holder.self;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  /** Every request parsed, checking the signature and that header and body agree. */
  deliveries(secret: string): Delivered[] {
    return this.hits.map((hit) => {
      expect(hit.headers["x-service-signature"]).toBe(createHmac("sha256", secret).update(hit.raw).digest("hex"));
      const body = JSON.parse(hit.raw.toString("utf8")) as Delivered["body"];
      const deliveryId = String(hit.headers["x-service-delivery-id"]);
      expect(body.id).toBe(deliveryId);
      expect(hit.headers["x-service-event"]).toBe(body.event);
      return { hit, deliveryId, event: body.event, body };
    });
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((r) => this.server.close(() => r()));
  }
}

type World = Awaited<ReturnType<typeof teamWithDomain>>;

const hooksPath = (w: World) => `/orgs/${w.orgId}/teams/${w.teamId}/webhooks`;
const alias = (label: string) => `${label}-${randomBytes(3).toString("hex")}`;

async function createHook(api: Api, w: World, url: string, events: string[]): Promise<Hook> {
  const res = await api<Hook>("POST", hooksPath(w), { token: w.owner.token, body: { url, events } });
  if (res.status !== 201) throw new Error(`webhook: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

async function deliveryLog(api: Api, w: World, hookId: string, query = ""): Promise<PageOf<LogEntry>> {
  const res = await api<PageOf<LogEntry>>("GET", `${hooksPath(w)}/${hookId}/deliveries${query}`, { token: w.owner.token });
  if (res.status !== 200) throw new Error(`deliveries: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

async function stats(api: Api, w: World, hookId: string): Promise<Stats> {
  const res = await api<Stats>("GET", `${hooksPath(w)}/${hookId}/stats`, { token: w.owner.token });
  if (res.status !== 200) throw new Error(`stats: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** The log once it holds `n` attempts (polled gently: the caller's rate limit is 300/min). */
const logOf = (api: Api, w: World, hookId: string, n: number, timeoutMs = 20_000) =>
  waitFor(
    async () => {
      const log = await deliveryLog(api, w, hookId);
      return log.total >= n ? log : null;
    },
    { what: `${n} logged attempts`, timeoutMs, intervalMs: 250 },
  );

describe("webhooks through the gateway (short retry base and timeout)", () => {
  let system: System;
  let api: Api;

  beforeAll(async () => {
    system = await System.start({
      "webhook-dispatcher": {
        BB_DELIVERY_RETRY_BASE: "300ms",
        BB_DEFAULTS_WEBHOOK_TIMEOUT: "1s",
        // keep the webhook_retry worker from clearing a failure_count while a test reads it
        BB_WORKERS_WEBHOOK_RETRY_INTERVAL: "1h",
      },
    });
    api = apiClient(system.gatewayUrl);
  });

  afterAll(async () => {
    await system?.stop();
  });

  it("when an inbox is created, mail arrives and an inbox's TTL lapses, then each event is delivered, signed, and shows in the log and stats", async () => {
    const world = await teamWithDomain(api);
    const rx = await Receiver.start();
    try {
      const hook = await createHook(api, world, rx.url, ["email.received", "inbox.created", "inbox.expired"]);

      const inbox = await createInbox(api, world.owner.token, world.assignmentId, alias("wh"));
      const created = await waitFor(() => rx.deliveries(hook.secret).find((d) => d.event === "inbox.created"), {
        what: "inbox.created delivery",
      });
      expect(created.body.data).toMatchObject({
        inbox_id: inbox.id,
        team_id: world.teamId,
        address: inbox.address,
        full_address: inbox.full_address,
      });
      expect(typeof created.body.data.expires_at).toBe("string");

      const subject = `Hook ${randomBytes(4).toString("hex")}`;
      const sent = await sendMail(system.ports.smtp, { from: "sender@example.org", to: inbox.full_address, subject, text: "hello" });
      expect(sent.data?.code).toBe(250);
      const received = await waitFor(() => rx.deliveries(hook.secret).find((d) => d.event === "email.received"), {
        what: "email.received delivery",
      });
      expect(received.body.data).toMatchObject({
        inbox_id: inbox.id,
        team_id: world.teamId,
        from: "sender@example.org",
        to: inbox.full_address,
        subject,
      });
      expect(typeof received.body.data.email_id).toBe("string");

      const shortLived = await api<{ id: string; full_address: string }>("POST", "/inboxes", {
        token: world.owner.token,
        body: { domain_assignment_id: world.assignmentId, alias: alias("ttl"), ttl: "2s" },
      });
      expect(shortLived.status).toBe(201);
      const expired = await waitFor(() => rx.deliveries(hook.secret).find((d) => d.event === "inbox.expired"), {
        what: "inbox.expired delivery",
        timeoutMs: 20_000,
      });
      expect(expired.body.data).toMatchObject({
        inbox_id: shortLived.body.id,
        team_id: world.teamId,
        full_address: shortLived.body.full_address,
      });
      expect(typeof expired.body.data.expired_at).toBe("string");

      // inbox.created x2, email.received, inbox.expired: four deliveries, each with its own id
      const all = await waitFor(() => (rx.hits.length >= 4 ? rx.deliveries(hook.secret) : null), { what: "four deliveries" });
      expect(new Set(all.map((d) => d.deliveryId)).size).toBe(all.length);

      const log = await logOf(api, world, hook.id, 4);
      expect(log).toMatchObject({ total: 4, page: 1, per_page: 20, total_pages: 1 });
      expect(log.data.every((e) => e.success && e.attempt === 1 && e.response_status === 200 && e.error === null)).toBe(true);
      expect(log.data.every((e) => e.webhook_id === hook.id)).toBe(true);
      const times = log.data.map((e) => Date.parse(e.created_at));
      expect([...times].sort((a, b) => b - a)).toEqual(times); // newest first
      expect(log.data[log.data.length - 1]?.event).toBe("inbox.created");
      expect(log.data[0]?.event).toBe("inbox.expired");
      expect(new Set(log.data.map((e) => e.delivery_id))).toEqual(new Set(all.map((d) => d.deliveryId)));

      const paged = await deliveryLog(api, world, hook.id, "?per_page=3&page=2");
      expect(paged).toMatchObject({ total: 4, page: 2, per_page: 3, total_pages: 2 });
      expect(paged.data.map((e) => e.id)).toEqual([log.data[3]?.id]);
      for (const bad of ["?per_page=0", "?per_page=101", "?page=0"]) {
        expect((await api("GET", `${hooksPath(world)}/${hook.id}/deliveries${bad}`, { token: world.owner.token })).status).toBe(400);
        expect((await api("GET", `${hooksPath(world)}${bad}`, { token: world.owner.token })).status).toBe(400);
      }

      const s = await stats(api, world, hook.id);
      expect(s).toMatchObject({ total_deliveries: 4, success_count: 4, failure_count: 0, success_rate: 100 });
      expect(s.last_delivery_at).toBe(log.data[0]?.created_at);
      const avg = Math.round(log.data.reduce((sum, e) => sum + e.response_time_ms, 0) / log.data.length);
      expect(s.avg_response_time_ms).toBe(avg);
    } finally {
      await rx.close();
    }
  });

  it("when the receiver never answers within the timeout, then failure_count rises by one and the next event is still sent", async () => {
    const world = await teamWithDomain(api);
    const rx = await Receiver.start();
    try {
      rx.answer = () => "hang";
      const hook = await createHook(api, world, rx.url, ["inbox.created"]);
      await createInbox(api, world.owner.token, world.assignmentId, alias("slow"));

      const failed = await waitFor(
        async () => {
          const list = await api<PageOf<Hook>>("GET", hooksPath(world), { token: world.owner.token });
          const h = list.body.data.find((x) => x.id === hook.id);
          return h && h.failure_count === 1 ? h : null;
        },
        { what: "failure_count 1", timeoutMs: 20_000, intervalMs: 250 },
      );
      expect(failed.active).toBe(true);
      expect(rx.hits).toHaveLength(3);
      expect(new Set(rx.deliveries(hook.secret).map((d) => d.deliveryId)).size).toBe(1);
      const log = await logOf(api, world, hook.id, 3);
      expect(log.data.map((e) => [e.attempt, e.success, e.response_status])).toEqual([
        [3, false, null],
        [2, false, null],
        [1, false, null],
      ]);
      expect(log.data.every((e) => /timed out/.test(e.error ?? "") && e.response_time_ms >= 900)).toBe(true);

      rx.answer = () => 200;
      const next = await createInbox(api, world.owner.token, world.assignmentId, alias("after"));
      const delivered = await waitFor(
        () => rx.deliveries(hook.secret).find((d) => d.event === "inbox.created" && d.body.data.inbox_id === next.id),
        { what: "the next event's delivery" },
      );
      expect(delivered.deliveryId).not.toBe(rx.deliveries(hook.secret)[0]?.deliveryId);

      await logOf(api, world, hook.id, 4);
      const s = await stats(api, world, hook.id);
      expect(s).toMatchObject({ total_deliveries: 4, success_count: 1, failure_count: 3, success_rate: 25 });
      expect(s.avg_response_time_ms).toBeGreaterThanOrEqual(700); // three ~1 s timeouts and one quick 200
      const list = await api<PageOf<Hook>>("GET", hooksPath(world), { token: world.owner.token });
      expect(list.body.data.find((x) => x.id === hook.id)?.failure_count).toBe(1);
    } finally {
      await rx.close();
    }
  });

  it("when webhooks are listed, patched and deleted, then the URL rules apply again and another team's webhook is not found", async () => {
    const world = await teamWithDomain(api);
    const other = await teamWithDomain(api);
    const rx = await Receiver.start();
    try {
      const hook = await createHook(api, world, rx.url, ["inbox.created"]);
      const path = `${hooksPath(world)}/${hook.id}`;

      const list = await api<PageOf<Hook & { url: string }>>("GET", hooksPath(world), { token: world.owner.token });
      expect(list.status).toBe(200);
      expect(list.body).toMatchObject({ total: 1, page: 1, per_page: 20, total_pages: 1 });
      expect(list.body.data[0]).toMatchObject({ id: hook.id, url: rx.url, active: true, failure_count: 0 });
      expect(list.body.data[0]).not.toHaveProperty("secret");

      const refused = await api<{ code: string }>("PATCH", path, { token: world.owner.token, body: { url: "http://metadata.internal/x" } });
      expect(refused.status).toBe(400);
      expect(refused.body.code).toBe("validation_error");
      expect((await api("PATCH", path, { token: world.owner.token, body: {} })).status).toBe(400);

      const patched = await api<{ events: string[]; active: boolean }>("PATCH", path, {
        token: world.owner.token,
        body: { events: ["inbox.created", "inbox.expired"], active: false },
      });
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({ events: ["inbox.created", "inbox.expired"], active: false });

      // an inactive webhook is not sent to
      await createInbox(api, world.owner.token, world.assignmentId, alias("quiet"));
      await new Promise((r) => setTimeout(r, 1500));
      expect(rx.hits).toHaveLength(0);

      // the other team's owner: not found on every route, even with the right ids
      for (const [method, suffix, body] of [
        ["PATCH", "", { active: true }],
        ["DELETE", "", undefined],
        ["GET", "/deliveries", undefined],
        ["GET", "/stats", undefined],
      ] as const) {
        const res = await api<{ code: string }>(method, `${path}${suffix}`, { token: other.owner.token, ...(body ? { body } : {}) });
        expect([method, suffix, res.status, res.body.code]).toEqual([method, suffix, 404, "not_found"]);
      }
      // the right team's path with a webhook id of another team: 404 too
      const theirs = await createHook(api, other, rx.url, ["inbox.created"]);
      const cross = await api("GET", `${hooksPath(world)}/${theirs.id}/stats`, { token: world.owner.token });
      expect(cross.status).toBe(404);

      const del = await api<{ message: string }>("DELETE", path, { token: world.owner.token });
      expect(del.status).toBe(200);
      expect(typeof del.body.message).toBe("string");
      expect((await api("DELETE", path, { token: world.owner.token })).status).toBe(404);
      const after = await api<PageOf<Hook>>("GET", hooksPath(world), { token: world.owner.token });
      expect(after.body).toMatchObject({ total: 0, data: [] });
    } finally {
      await rx.close();
    }
  });
});

describe("webhook retries with the real delays (retry_base 5 s)", () => {
  let system: System;
  let api: Api;

  beforeAll(async () => {
    system = await System.start({ "webhook-dispatcher": { BB_WORKERS_WEBHOOK_RETRY_INTERVAL: "1h" } });
    api = apiClient(system.gatewayUrl);
  });

  afterAll(async () => {
    await system?.stop();
  });

  it("when the receiver answers 500 twice then 200, then three attempts of one delivery arrive at about 0, 5 and 30 s", async () => {
    const world = await teamWithDomain(api);
    const rx = await Receiver.start();
    try {
      rx.answer = (n) => (n <= 2 ? 500 : 200);
      const hook = await createHook(api, world, rx.url, ["inbox.created"]);
      await createInbox(api, world.owner.token, world.assignmentId, alias("retry"));
      const createdAt = Date.now();
      await waitFor(() => rx.hits.length >= 3, { what: "three attempts", timeoutMs: 45_000, intervalMs: 100 });
      const [a, b, c] = rx.hits.map((h) => h.at) as [number, number, number];
      expect(a - createdAt).toBeLessThan(1500);
      expect(Math.abs(b - a - 5_000)).toBeLessThanOrEqual(1500);
      expect(Math.abs(c - a - 30_000)).toBeLessThanOrEqual(1500);
      expect(new Set(rx.deliveries(hook.secret).map((d) => d.deliveryId)).size).toBe(1);

      const log = await logOf(api, world, hook.id, 3);
      expect(log.data.map((e) => [e.attempt, e.success, e.response_status])).toEqual([
        [3, true, 200],
        [2, false, 500],
        [1, false, 500],
      ]);
      expect(new Set(log.data.map((e) => e.delivery_id))).toEqual(new Set([rx.hits[0]?.headers["x-service-delivery-id"]]));
      expect(await stats(api, world, hook.id)).toMatchObject({
        total_deliveries: 3,
        success_count: 1,
        failure_count: 2,
        success_rate: 33.33,
        last_delivery_at: log.data[0]?.created_at,
      });
      const list = await api<PageOf<Hook>>("GET", hooksPath(world), { token: world.owner.token });
      expect(list.body.data[0]?.failure_count).toBe(0);
    } finally {
      await rx.close();
    }
  }, 90_000);

  it("when the dispatcher is killed between attempts, then after a restart it keeps the schedule and delivers with the same delivery id", async () => {
    const world = await teamWithDomain(api);
    const rx = await Receiver.start();
    try {
      rx.answer = (n) => (n === 1 ? 500 : 200);
      const hook = await createHook(api, world, rx.url, ["inbox.created"]);
      await createInbox(api, world.owner.token, world.assignmentId, alias("crash"));
      await logOf(api, world, hook.id, 1); // attempt 1 and its schedule are committed
      const first = rx.hits[0] as Hit;

      await system.stopProcess("webhook-dispatcher", "SIGKILL");
      const killedAt = Date.now();
      expect(killedAt - first.at).toBeLessThan(4_000); // killed before attempt 2 was due
      expect(rx.hits).toHaveLength(1);
      await system.startProcess("webhook-dispatcher");
      const restartedAt = Date.now();

      await waitFor(() => rx.hits.length >= 2, { what: "attempt 2 after the restart", timeoutMs: 30_000, intervalMs: 100 });
      const second = rx.hits[1] as Hit;
      // never early, and on time (or at once, if the restart took longer than the delay)
      expect(second.at - first.at).toBeGreaterThanOrEqual(5_000 - 100);
      expect(second.at - first.at).toBeLessThanOrEqual(Math.max(5_000, restartedAt - first.at) + 1_500);
      expect(second.headers["x-service-delivery-id"]).toBe(first.headers["x-service-delivery-id"]);

      const log = await logOf(api, world, hook.id, 2);
      expect(log.data.map((e) => [e.attempt, e.success, e.response_status, e.delivery_id])).toEqual([
        [2, true, 200, first.headers["x-service-delivery-id"]],
        [1, false, 500, first.headers["x-service-delivery-id"]],
      ]);
      await new Promise((r) => setTimeout(r, 1000));
      expect(rx.hits).toHaveLength(2);
      expect(await stats(api, world, hook.id)).toMatchObject({ total_deliveries: 2, success_count: 1, failure_count: 1, success_rate: 50 });
    } finally {
      await rx.close();
    }
  }, 90_000);
});
