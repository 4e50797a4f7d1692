import { createHmac, randomBytes } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { waitFor } from "@burnbox/test-kit";
import type { Api, teamWithDomain } from "./world";

/** What the webhook e2e files share: a scriptable receiver and the webhook API as a client calls it. */
export interface Hit {
  headers: IncomingHttpHeaders;
  raw: Buffer;
  at: number;
}
export interface Delivered {
  hit: Hit;
  deliveryId: string;
  event: string;
  body: { id: string; event: string; timestamp: string; data: Record<string, unknown> };
}
export interface Hook {
  id: string;
  secret: string;
  failure_count: number;
  active: boolean;
}
export interface LogEntry {
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
export interface PageOf<T> {
  data: T[];
  total: number;
  page: number;
  per_page: number;
  total_pages: number;
}
export interface Stats {
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
export class Receiver {
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

  /**
   * Every request parsed, checking both signatures (the body's, and X-Service-Signature-256 over
   * the send time and the body, whose t is X-Service-Timestamp) and that header and body agree.
   */
  deliveries(secret: string): Delivered[] {
    return this.hits.map((hit) => {
      expect(hit.headers["x-service-signature"]).toBe(createHmac("sha256", secret).update(hit.raw).digest("hex"));
      const t = String(hit.headers["x-service-timestamp"]);
      const v1 = createHmac("sha256", secret).update(`${t}.`).update(hit.raw).digest("hex");
      expect(hit.headers["x-service-signature-256"]).toBe(`t=${t},v1=${v1}`);
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

export type World = Awaited<ReturnType<typeof teamWithDomain>>;

export const hooksPath = (w: World) => `/orgs/${w.orgId}/teams/${w.teamId}/webhooks`;
export const alias = (label: string) => `${label}-${randomBytes(3).toString("hex")}`;

export async function createHook(api: Api, w: World, url: string, events: string[]): Promise<Hook> {
  const res = await api<Hook>("POST", hooksPath(w), { token: w.owner.token, body: { url, events } });
  if (res.status !== 201) throw new Error(`webhook: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export async function deliveryLog(api: Api, w: World, hookId: string, query = ""): Promise<PageOf<LogEntry>> {
  const res = await api<PageOf<LogEntry>>("GET", `${hooksPath(w)}/${hookId}/deliveries${query}`, { token: w.owner.token });
  if (res.status !== 200) throw new Error(`deliveries: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export async function stats(api: Api, w: World, hookId: string): Promise<Stats> {
  const res = await api<Stats>("GET", `${hooksPath(w)}/${hookId}/stats`, { token: w.owner.token });
  if (res.status !== 200) throw new Error(`stats: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** The log once it holds `n` attempts (polled gently: the caller's rate limit is 300/min). */
export const logOf = (api: Api, w: World, hookId: string, n: number, timeoutMs = 20_000) =>
  waitFor(
    async () => {
      const log = await deliveryLog(api, w, hookId);
      return log.total >= n ? log : null;
    },
    { what: `${n} logged attempts`, timeoutMs, intervalMs: 250 },
  );
