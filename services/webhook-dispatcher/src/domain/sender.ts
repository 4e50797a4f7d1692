import { createHmac } from "node:crypto";
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";
import {
  SpanKind,
  SpanStatusCode,
  addressProblem,
  hostOf,
  traceHeaders,
  withSpan,
  type Allowlist,
  type Context,
} from "@burnbox/service-kit";

/** Resolves every address of a host name (injectable so tests can point a name anywhere). */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

export const systemResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true, verbatim: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))),
  );

export const signBody = (secret: string, body: string): string => createHmac("sha256", secret).update(body, "utf8").digest("hex");

export interface SendResult {
  success: boolean;
  status: number | null;
  timeMs: number;
  error: string | null;
}

class RefusedTarget extends Error {}

/**
 * The connection's own lookup: resolve now, refuse if any answer is internal, and hand the socket
 * the address that was checked, so a DNS answer that changes in between cannot redirect it.
 */
function checkedLookup(resolver: Resolver, allowed: Allowlist, hostname: string): LookupFunction {
  return (host, options, callback) => {
    resolver(host)
      .then((addresses) => {
        if (addresses.length === 0) throw new Error(`no addresses for ${host}`);
        if (!allowed.hosts.has(hostname)) {
          for (const a of addresses) {
            const problem = addressProblem(a.address, allowed);
            if (problem) throw new RefusedTarget(`refused: ${host} resolves to a non-public address (${a.address})`);
          }
        }
        const family = (options as { family?: number }).family;
        const usable = addresses.filter((a) => !family || a.family === family);
        const chosen = usable[0] ?? addresses[0]!;
        if ((options as { all?: boolean }).all) callback(null, [chosen] as never);
        else callback(null, chosen.address, chosen.family);
      })
      .catch((err: Error) => callback(err as NodeJS.ErrnoException, "", 4));
  };
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
  now?: () => number;
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
  let url: URL;
  try {
    url = new URL(opts.url);
  } catch {
    return { success: false, status: null, timeMs: 0, error: "invalid url" };
  }
  const host = hostOf(url);
  if (ipaddr.isValid(host) && !opts.allowed.hosts.has(host)) {
    const problem = addressProblem(host, opts.allowed);
    if (problem) return { success: false, status: null, timeMs: elapsed(), error: `refused: ${problem}` };
  }
  const timestamp = Math.floor((opts.now ?? Date.now)() / 1000);
  const headers = {
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(opts.body)),
    "user-agent": "BurnBox-Webhooks/1",
    "x-service-signature": signBody(opts.secret, opts.body),
    "x-service-event": opts.event,
    "x-service-delivery-id": opts.deliveryId,
    "x-service-timestamp": String(timestamp),
    ...traceHeaders(),
  };
  const first = await request(url, host, headers, opts, elapsed);
  // a pooled connection the receiver closed just as it was reused: the request never reached it,
  // so it is sent once more on a new connection (as the HTTP client's own docs advise)
  return first.retry ? (await request(url, host, headers, opts, elapsed)).result : first.result;
}

function request(
  url: URL,
  host: string,
  headers: Record<string, string>,
  opts: Parameters<typeof sendWebhook>[0],
  elapsed: () => number,
): Promise<{ result: SendResult; retry: boolean }> {
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolveOuter) => {
    let retry = false;
    const resolve = (result: SendResult) => resolveOuter({ result, retry });
    let settled = false;
    const finish = (r: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
    };
    const req = client.request(
      {
        protocol: url.protocol,
        hostname: host,
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method: "POST",
        headers,
        agent: url.protocol === "https:" ? agents["https:"] : agents["http:"],
        lookup: checkedLookup(opts.resolver, opts.allowed, host),
        ...(url.protocol === "https:" && !ipaddr.isValid(host) ? { servername: host } : {}),
      },
      (res) => {
        res.resume(); // the body is not needed; drain it so the connection can be reused
        res.on("end", () => {
          const status = res.statusCode ?? 0;
          finish({
            success: status >= 200 && status < 300,
            status,
            timeMs: elapsed(),
            error: status >= 200 && status < 300 ? null : `HTTP ${status}`,
          });
        });
        res.on("error", (err) => finish({ success: false, status: res.statusCode ?? null, timeMs: elapsed(), error: err.message }));
      },
    );
    const timer = setTimeout(() => {
      req.destroy(new Error(`timed out after ${opts.timeoutMs} ms`));
    }, opts.timeoutMs);
    req.on("error", (err) => {
      retry = req.reusedSocket && (err as NodeJS.ErrnoException).code === "ECONNRESET";
      finish({ success: false, status: null, timeMs: elapsed(), error: err.message.slice(0, 500) });
    });
    req.end(opts.body);
  });
}
