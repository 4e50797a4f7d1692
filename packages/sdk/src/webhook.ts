import { WebhookVerificationError } from "./errors.js";

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
   * How far the signed `timestamp` of the body may lie from now, in seconds (default 300). A
   * delivery older than that is refused as a possible replay; `Infinity` turns the check off
   * (then deduplicate on `id`, which every retry and redelivery repeats).
   */
  toleranceSeconds?: number;
  /** The clock, in milliseconds (tests). */
  now?: () => number;
}

export const SIGNATURE_HEADER = "x-service-signature";
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

/**
 * Checks a webhook delivery as the webhook-dispatcher signs it: `X-Service-Signature` is the
 * lowercase hex HMAC-SHA256 of the exact body bytes, keyed with the webhook's secret (its UTF-8
 * text, as shown on create). Pass the body exactly as received (a string or the raw bytes), never
 * JSON re-serialized. Then the body's `timestamp`, which the signature covers, must be within
 * `toleranceSeconds` of now. Resolves to the parsed delivery; rejects with a
 * WebhookVerificationError (`reason`: missing_signature, bad_signature, malformed_body,
 * stale_timestamp). Uses Web Crypto, so it runs in Node 20+, browsers, Deno and workers.
 */
export async function verifyWebhook<T = Record<string, unknown>>(
  secret: string,
  headers: HeaderBag,
  body: string | Uint8Array,
  options: VerifyWebhookOptions = {},
): Promise<WebhookDelivery<T>> {
  const given = header(headers, SIGNATURE_HEADER)?.trim();
  if (!given) throw new WebhookVerificationError("missing_signature", "no X-Service-Signature header");
  const signature = hexToBytes(given);
  const bytes = typeof body === "string" ? new TextEncoder().encode(body) : body;
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["verify"]);
  // subtle.verify compares in constant time
  const ok = signature !== null && signature.length === 32 && (await crypto.subtle.verify("HMAC", key, signature, bytes as BufferSource));
  if (!ok) throw new WebhookVerificationError("bad_signature", "the signature does not match the body");

  let delivery: WebhookDelivery<T>;
  try {
    delivery = JSON.parse(typeof body === "string" ? body : new TextDecoder().decode(body)) as WebhookDelivery<T>;
  } catch {
    throw new WebhookVerificationError("malformed_body", "the body is not JSON");
  }
  const at = typeof delivery?.timestamp === "string" ? Date.parse(delivery.timestamp) : NaN;
  if (Number.isNaN(at)) throw new WebhookVerificationError("malformed_body", "the body has no timestamp");
  const tolerance = options.toleranceSeconds ?? 300;
  const now = (options.now ?? Date.now)();
  if (Math.abs(now - at) > tolerance * 1000) {
    throw new WebhookVerificationError(
      "stale_timestamp",
      `the delivery's timestamp ${delivery.timestamp} is outside ${tolerance} s of now`,
    );
  }
  return delivery;
}
