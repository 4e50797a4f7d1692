import { createHmac } from "node:crypto";
import http from "node:http";
import https from "node:https";
import type { Clock } from "@burnbox/service-kit/runtime";
import {
  RefusedTarget,
  guardedRequest,
  systemResolver as kitSystemResolver,
  type Allowlist,
  type HostResolver,
} from "@burnbox/service-kit/security";
import { SpanKind, SpanStatusCode, traceHeaders, withSpan, type Context } from "@burnbox/service-kit/telemetry";
import { webhookUrlProblem } from "../domain/url-policy";

/** Resolves every address of a host name (injectable so tests can point a name anywhere). */
export type Resolver = HostResolver;

export const systemResolver: Resolver = kitSystemResolver;

/** `X-Service-Signature` (the spec's): the lowercase hex HMAC-SHA256 of the body alone. */
export const signBody = (secret: string, body: string): string => createHmac("sha256", secret).update(body, "utf8").digest("hex");

/**
 * `X-Service-Signature-256`: `t=<unix seconds>,v1=<lowercase hex HMAC-SHA256(secret, t + "." + body)>`,
 * `t` being this attempt's send time (= `X-Service-Timestamp`), so a receiver can refuse a replay
 * by the signed time while every retry and redelivery, signed afresh, passes.
 */
export const signDelivery = (secret: string, timestamp: number, body: string): string =>
  `t=${timestamp},v1=${createHmac("sha256", secret).update(`${timestamp}.`, "utf8").update(body, "utf8").digest("hex")}`;

export interface SendResult {
  success: boolean;
  status: number | null;
  timeMs: number;
  error: string | null;
}

/**
 * Connections to receivers are kept open between deliveries (a receiver taking a burst of events
 * then costs one TCP and TLS handshake, not one per event). A pooled connection is to an address
 * that was checked when it was opened; it is closed after `KEEP_ALIVE_IDLE_MS` idle (or sooner when
 * the receiver's Keep-Alive header says so), so a receiver whose name now resolves elsewhere is
 * reached at its new address soon after, and checked again then.
 */
const KEEP_ALIVE_IDLE_MS = 4_000;
const agents = {
  "http:": new http.Agent({ keepAlive: true, timeout: KEEP_ALIVE_IDLE_MS, maxFreeSockets: 16, scheduling: "lifo" }),
  "https:": new https.Agent({ keepAlive: true, timeout: KEEP_ALIVE_IDLE_MS, maxFreeSockets: 16, scheduling: "lifo" }),
};

/** Closes the pooled receiver connections (shutdown, tests). */
export function closeReceiverConnections(): void {
  agents["http:"].destroy();
  agents["https:"].destroy();
}

/** One signed POST; never follows redirects; a refused target is a failed attempt like any other. */
export async function sendWebhook(opts: {
  url: string;
  secret: string;
  body: string;
  event: string;
  deliveryId: string;
  timeoutMs: number;
  allowed: Allowlist;
  resolver: Resolver;
  now?: Clock;
  /** The trace this POST continues (the event's); else the active one. The receiver gets it as `traceparent`. */
  trace?: Context;
}): Promise<SendResult> {
  const attrs = { "http.request.method": "POST", "webhook.delivery_id": opts.deliveryId, "webhook.event": opts.event };
  return withSpan(
    "webhook POST",
    { kind: SpanKind.CLIENT, ...(opts.trace ? { parent: opts.trace } : {}), attributes: attrs },
    async (span) => {
      const result = await post(opts);
      if (result.status !== null) span.setAttribute("http.response.status_code", result.status);
      if (!result.success) span.setStatus({ code: SpanStatusCode.ERROR, message: result.error ?? "failed" });
      return result;
    },
  );
}

async function post(opts: Parameters<typeof sendWebhook>[0]): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  // the create-time rules again (a URL stored before a rule existed is refused now, not sent)
  const problem = webhookUrlProblem(opts.url, opts.allowed);
  if (problem) return { success: false, status: null, timeMs: elapsed(), error: `refused: ${problem}` };
  const url = new URL(opts.url);
  const timestamp = Math.floor((opts.now ?? Date.now)() / 1000);
  const headers = {
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(opts.body)),
    "user-agent": "BurnBox-Webhooks/1",
    "x-service-signature": signBody(opts.secret, opts.body),
    "x-service-signature-256": signDelivery(opts.secret, timestamp, opts.body),
    "x-service-event": opts.event,
    "x-service-delivery-id": opts.deliveryId,
    "x-service-timestamp": String(timestamp),
    ...traceHeaders(),
  };
  try {
    // the kit's guard: every address the name resolves to is checked when the socket opens, the
    // socket goes to the checked one, redirects are not followed, a reset reused socket is retried once
    const res = await guardedRequest(url, {
      policy: { resolve: opts.resolver, allowed: opts.allowed },
      method: "POST",
      headers,
      body: opts.body,
      timeoutMs: opts.timeoutMs,
      agent: url.protocol === "https:" ? agents["https:"] : agents["http:"],
    });
    const ok = res.status >= 200 && res.status < 300;
    return { success: ok, status: res.status, timeMs: elapsed(), error: ok ? null : `HTTP ${res.status}` };
  } catch (err) {
    const message = err instanceof RefusedTarget ? `refused: ${err.message}` : (err as Error).message.slice(0, 500);
    return { success: false, status: null, timeMs: elapsed(), error: message };
  }
}
