import { WebhookVerificationError } from "./errors.js";
import { LRUCache } from "lru-cache";

/** A delivery's body (contract notes): `{id, event, timestamp, data}`. */
export interface WebhookDelivery<T = Record<string, unknown>> {
  /** The delivery's id, the same as `X-Service-Delivery-ID` on every attempt of it. */
  id: string;
  /** `email.received`, `inbox.created`, `inbox.expired`. */
  event: string;
  /** When the event happened (ISO 8601); covered by the signature. */
  timestamp: string;
  data: T;
}

export type HeaderBag = Headers | Record<string, string | string[] | undefined>;

export interface VerifyWebhookOptions {
  /**
   * How far the signed send time (`t=` of `X-Service-Signature-256`) may lie from now, in seconds
   * (default 300). A delivery signed longer ago is refused as a possible replay; every attempt,
   * retry and redelivery is signed afresh when it is sent. `Infinity` turns the check off (then
   * drop repeated delivery ids with `createReplayGuard`).
   */
  toleranceSeconds?: number;
  /** The clock, in milliseconds (tests). */
  now?: () => number;
}

export const SIGNATURE_HEADER = "x-service-signature";
/** `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + body)>`: the signature that covers the send time. */
export const SIGNATURE_256_HEADER = "x-service-signature-256";
export const EVENT_HEADER = "x-service-event";
export const DELIVERY_ID_HEADER = "x-service-delivery-id";
export const TIMESTAMP_HEADER = "x-service-timestamp";

function header(headers: HeaderBag, name: string): string | undefined {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  for (const [k, v] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (k.toLowerCase() === name) return Array.isArray(v) ? v[0] : v;
  }
  return undefined;
}

function hexToBytes(hex: string): Uint8Array<ArrayBuffer> | null {
  if (!/^(?:[0-9a-fA-F]{2})+$/.test(hex)) return null;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** `t=…,v1=…[,v1=…]` as parsed; null when it is not of that form. Schemes other than v1 are ignored. */
function parseSignature256(value: string): { t: number; v1: Uint8Array<ArrayBuffer>[] } | null {
  let t: number | null = null;
  const v1: Uint8Array<ArrayBuffer>[] = [];
  for (const part of value.split(",")) {
    const eq = part.indexOf("=");
    if (eq <= 0) return null;
    const key = part.slice(0, eq).trim();
    const val = part.slice(eq + 1).trim();
    if (key === "t") {
      if (t !== null || !/^\d{1,12}$/.test(val)) return null;
      t = Number(val);
    } else if (key === "v1") {
      const bytes = /^[0-9a-f]{64}$/.test(val) ? hexToBytes(val) : null;
      if (!bytes) return null;
      v1.push(bytes);
    }
  }
  return t !== null && v1.length > 0 ? { t, v1 } : null;
}

/**
 * Checks a webhook delivery as the webhook-dispatcher signs it, by `X-Service-Signature-256:
 * t=<unix seconds>,v1=<hex>`: `v1` is the lowercase hex HMAC-SHA256, keyed with the webhook's
 * secret (its UTF-8 text, as shown on create), of `t + "." + body` over the exact body bytes, and
 * `t` is when this attempt was sent. Pass the body exactly as received (a string or the raw bytes),
 * never JSON re-serialized. `t` must be within `toleranceSeconds` of now (a replay of a captured
 * delivery is refused after it); one matching `v1` of several is enough; the comparison is
 * constant-time. Resolves to the parsed delivery; rejects with a WebhookVerificationError
 * (`reason`: missing_signature, malformed_signature, stale_timestamp, bad_signature,
 * malformed_body). A delivery id already handled is not refused here: drop it with
 * `createReplayGuard`. Uses Web Crypto, so it runs in Node 20+, browsers, Deno and workers.
 */
export async function verifyWebhook<T = Record<string, unknown>>(
  secret: string,
  headers: HeaderBag,
  body: string | Uint8Array,
  options: VerifyWebhookOptions = {},
): Promise<WebhookDelivery<T>> {
  const given = header(headers, SIGNATURE_256_HEADER)?.trim();
  if (!given) throw new WebhookVerificationError("missing_signature", "no X-Service-Signature-256 header");
  const parsed = parseSignature256(given);
  if (!parsed) throw new WebhookVerificationError("malformed_signature", "X-Service-Signature-256 is not t=<unix seconds>,v1=<64 hex>");
  const tolerance = options.toleranceSeconds ?? 300;
  const now = (options.now ?? Date.now)();
  if (Math.abs(now - parsed.t * 1000) > tolerance * 1000) {
    throw new WebhookVerificationError("stale_timestamp", `the delivery was signed at ${parsed.t}, outside ${tolerance} s of now`);
  }
  const bytes = typeof body === "string" ? new TextEncoder().encode(body) : body;
  const prefix = new TextEncoder().encode(`${parsed.t}.`);
  const signed = new Uint8Array(prefix.length + bytes.length);
  signed.set(prefix, 0);
  signed.set(bytes, prefix.length);
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["verify"]);
  let ok = false;
  // subtle.verify compares in constant time; every value is checked
  for (const signature of parsed.v1) if (await crypto.subtle.verify("HMAC", key, signature, signed)) ok = true;
  if (!ok) throw new WebhookVerificationError("bad_signature", "no signature matches the body and its send time");

  let delivery: WebhookDelivery<T>;
  try {
    delivery = JSON.parse(typeof body === "string" ? body : new TextDecoder().decode(body)) as WebhookDelivery<T>;
  } catch {
    throw new WebhookVerificationError("malformed_body", "the body is not JSON");
  }
  if (typeof delivery?.id !== "string" || typeof delivery.event !== "string") {
    throw new WebhookVerificationError("malformed_body", "the body is not a delivery {id, event, timestamp, data}");
  }
  return delivery;
}

/**
 * Where a replay guard keeps the delivery ids it has seen: the in-memory LRU by default, or your
 * own (a shared cache, so that several receiver processes drop each other's repeats). `markSeen`
 * must be atomic (set-if-absent): it records `id` for `ttlMs` and says whether it was there already.
 */
export interface ReplayStore<R extends boolean | Promise<boolean> = boolean> {
  markSeen(id: string, ttlMs: number): R;
  /** Forgets `id` (its handling failed, so its retry must get through). */
  forget(id: string): Forgotten<R>;
}

/** What `forget` returns: nothing for a synchronous store, a Promise for an asynchronous one. */
export type Forgotten<R> = R extends Promise<boolean> ? Promise<void> : void;

export interface ReplayGuardOptions<R extends boolean | Promise<boolean> = boolean> {
  /** How long an id is remembered, in milliseconds (default 24 h). At least the verify tolerance. */
  ttlMs?: number;
  /** The most ids the in-memory store keeps; the least recently seen go first (default 10 000). */
  max?: number;
  /** Another store than the in-memory one; `max` then does not apply. */
  store?: ReplayStore<R>;
  /** The clock, in milliseconds (tests). */
  now?: () => number;
}

export interface ReplayGuard<R extends boolean | Promise<boolean> = boolean> {
  /** True when this delivery id was seen within the TTL (drop it); else records it and is false. */
  seen(deliveryId: string): R;
  /** Forgets a delivery id whose handling failed, so that its retry is handled. */
  forget(deliveryId: string): Forgotten<R>;
}

/** A bounded LRU of ids with their expiry, in memory (one process). */
export class MemoryReplayStore implements ReplayStore<boolean> {
  private readonly ids: LRUCache<string, number>;
  constructor(
    max = 10_000,
    private readonly now: () => number = Date.now,
  ) {
    if (!(max >= 1)) throw new RangeError("max must be at least 1");
    this.ids = new LRUCache({ max });
  }

  markSeen(id: string, ttlMs: number): boolean {
    const at = this.now();
    // a get makes the id the most recently used; its expiry stays the first sighting's
    const expires = this.ids.get(id);
    if (expires !== undefined && expires > at) return true;
    this.ids.set(id, at + ttlMs);
    return false;
  }

  forget(id: string): void {
    this.ids.delete(id);
  }

  get size(): number {
    return this.ids.size;
  }
}

/**
 * Drops a delivery id already handled: a retry of a delivery that was handled but answered too
 * late, a redelivery, or a captured delivery replayed within the verify tolerance. Call `seen`
 * after `verifyWebhook` accepted the delivery; answer 2xx without handling it when it is true, and
 * call `forget` when handling failed (the retry repeats the id).
 */
export function createReplayGuard(options?: ReplayGuardOptions<boolean>): ReplayGuard<boolean>;
export function createReplayGuard<R extends boolean | Promise<boolean>>(
  options: ReplayGuardOptions<R> & { store: ReplayStore<R> },
): ReplayGuard<R>;
export function createReplayGuard<R extends boolean | Promise<boolean> = boolean>(options: ReplayGuardOptions<R> = {}): ReplayGuard<R> {
  const ttlMs = options.ttlMs ?? 24 * 60 * 60 * 1000;
  if (!(ttlMs > 0)) throw new RangeError("ttlMs must be positive");
  const store = options.store ?? (new MemoryReplayStore(options.max ?? 10_000, options.now) as unknown as ReplayStore<R>);
  return {
    seen: (deliveryId) => store.markSeen(deliveryId, ttlMs),
    forget: (deliveryId) => store.forget(deliveryId),
  };
}
