import { readFileSync } from "node:fs";
import path from "node:path";
import { deliveryBody } from "../../../services/webhook-dispatcher/src/domain/deliveries/delivery-body.js";
import { signDelivery } from "../../../services/webhook-dispatcher/src/adapters/webhook-sender.js";
import { WebhookVerificationError } from "./errors.js";
import { createReplayGuard, MemoryReplayStore, verifyWebhook, type ReplayStore } from "./webhook.js";

const SECRET = "3f1c5a9e0b7d4e21a8c6f0d9b2e4a7c13f1c5a9e0b7d4e21a8c6f0d9b2e4a7c1";
const AT = Date.parse("2026-11-27T07:00:00.000Z");
/** A body and its send time, and their signature worked out once with `createHmac("sha256", SECRET).update(`${T}.${body}`, "utf8")`. */
const VECTOR_BODY =
  '{"id":"0193a0c4-7b1e-7c3d-9a2f-1b2c3d4e5f60","event":"email.received","timestamp":"2026-11-27T07:00:00.000Z","data":{"email_id":"0193a0c4-0000-7000-8000-000000000001","inbox_id":"0193a0c4-0000-7000-8000-000000000002","team_id":"0193a0c4-0000-7000-8000-000000000003","from":"Zoë <noreply@acme.test>","to":"qa@x.burnbox.test","subject":"Your code: 482 913 — café","received_at":"2026-11-27T07:00:00.000Z"}}';
const T = AT / 1000;
const VECTOR_V1 = "00236a6260e914b90ccfcc4a988307e40294c51aff09aa3e6309a81bca5b7806";
const VECTOR_HEADER = `t=${T},v1=${VECTOR_V1}`;

const reason = async (p: Promise<unknown>): Promise<string> => {
  try {
    await p;
  } catch (err) {
    if (err instanceof WebhookVerificationError) return err.reason;
    throw err;
  }
  return "accepted";
};

describe("verifyWebhook", () => {
  const at = { now: () => AT };
  const h = (value: string) => ({ "x-service-signature-256": value });

  it("when the body and X-Service-Signature-256 are the fixed vector, then it is accepted and parsed", async () => {
    const d = await verifyWebhook(SECRET, h(VECTOR_HEADER), VECTOR_BODY, at);
    expect(d).toMatchObject({ id: "0193a0c4-7b1e-7c3d-9a2f-1b2c3d4e5f60", event: "email.received" });
    expect(d.data).toMatchObject({ subject: "Your code: 482 913 — café" });
  });

  it("when the body is given as bytes and the headers as a Headers object, then it is accepted alike", async () => {
    const d = await verifyWebhook(SECRET, new Headers({ "X-Service-Signature-256": VECTOR_HEADER }), Buffer.from(VECTOR_BODY, "utf8"), at);
    expect(d.event).toBe("email.received");
  });

  it("when the dispatcher signs a delivery body it built at a send time long after the event, then verifyWebhook accepts it then", async () => {
    const event = {
      id: "0193a0c4-aaaa-7000-8000-000000000009",
      type: "email.received",
      occurred_at: new Date(AT).toISOString(),
      data: {
        email_id: "0193a0c4-0000-7000-8000-000000000001",
        inbox_id: "0193a0c4-0000-7000-8000-000000000002",
        team_id: "0193a0c4-0000-7000-8000-000000000003",
        from: "Ünïcode Sender <s@acme.test>",
        to: "qa@x.burnbox.test",
        subject: "Ваш код 123456 ✓",
        received_at: new Date(AT).toISOString(),
      },
    };
    const body = deliveryBody("0193a0c4-bbbb-7000-8000-000000000010", event as never);
    // a redelivery a day after the event: the body's timestamp is old, the signed send time is now
    const sentAt = T + 86_400;
    const headers = new Headers({ "x-service-signature-256": signDelivery(SECRET, sentAt, body), "x-service-timestamp": String(sentAt) });
    const d = await verifyWebhook(SECRET, headers, body, { now: () => sentAt * 1000 + 2_000 });
    expect(d).toEqual(JSON.parse(body));
  });

  it("when several v1 values are given (a secret being rotated), then one matching is enough", async () => {
    const other = signDelivery("other-secret", T, VECTOR_BODY).split(",")[1] as string;
    expect(await reason(verifyWebhook(SECRET, h(`t=${T},${other},v1=${VECTOR_V1}`), VECTOR_BODY, at))).toBe("accepted");
    expect(await reason(verifyWebhook(SECRET, h(`t=${T}, v1=${VECTOR_V1}, ${other}`), VECTOR_BODY, at))).toBe("accepted");
    expect(await reason(verifyWebhook(SECRET, h(`t=${T},${other}`), VECTOR_BODY, at))).toBe("bad_signature");
  });

  it("when only the body-only X-Service-Signature is sent, then it is refused: the send time must be signed", async () => {
    const bodyOnly = "7786bf5ebd739921ef5c7731853661033f377b804fcce7cb8979afb2dae71c4e";
    expect(
      await reason(verifyWebhook(SECRET, { "x-service-signature": bodyOnly, "x-service-timestamp": String(T) }, VECTOR_BODY, at)),
    ).toBe("missing_signature");
  });

  it.each([
    ["no signature header", {}, VECTOR_BODY, SECRET, "missing_signature"],
    ["an empty header", h(" "), VECTOR_BODY, SECRET, "missing_signature"],
    ["no t", h(`v1=${VECTOR_V1}`), VECTOR_BODY, SECRET, "malformed_signature"],
    ["no v1", h(`t=${T}`), VECTOR_BODY, SECRET, "malformed_signature"],
    ["a t that is not a number", h(`t=soon,v1=${VECTOR_V1}`), VECTOR_BODY, SECRET, "malformed_signature"],
    ["two t", h(`t=${T},t=${T},v1=${VECTOR_V1}`), VECTOR_BODY, SECRET, "malformed_signature"],
    ["a v1 that is not hex", h(`t=${T},v1=${"zz".repeat(32)}`), VECTOR_BODY, SECRET, "malformed_signature"],
    ["a truncated v1", h(`t=${T},v1=${VECTOR_V1.slice(0, 62)}`), VECTOR_BODY, SECRET, "malformed_signature"],
    ["an upper-case v1", h(`t=${T},v1=${VECTOR_V1.toUpperCase()}`), VECTOR_BODY, SECRET, "malformed_signature"],
    ["a part without =", h(`t=${T},v1`), VECTOR_BODY, SECRET, "malformed_signature"],
    ["a signature of another secret", h(signDelivery("other", T, VECTOR_BODY)), VECTOR_BODY, SECRET, "bad_signature"],
    ["one changed byte of the body", h(VECTOR_HEADER), VECTOR_BODY.replace("482", "483"), SECRET, "bad_signature"],
    ["re-serialized JSON", h(VECTOR_HEADER), JSON.stringify(JSON.parse(VECTOR_BODY), null, 1), SECRET, "bad_signature"],
    ["a t moved by one second (the v1 is of another time)", h(`t=${T + 1},v1=${VECTOR_V1}`), VECTOR_BODY, SECRET, "bad_signature"],
  ])("when the delivery has %s, then it is refused", async (_what, headers, body, secret, why) => {
    expect(await reason(verifyWebhook(secret, headers as Record<string, string>, body, at))).toBe(why);
  });

  it("when the signed time is older or newer than the tolerance, then it is refused as stale; inside it, accepted", async () => {
    const hd = h(VECTOR_HEADER);
    expect(await reason(verifyWebhook(SECRET, hd, VECTOR_BODY, { now: () => AT + 301_000 }))).toBe("stale_timestamp");
    expect(await reason(verifyWebhook(SECRET, hd, VECTOR_BODY, { now: () => AT - 301_000 }))).toBe("stale_timestamp");
    expect(await reason(verifyWebhook(SECRET, hd, VECTOR_BODY, { now: () => AT + 299_000 }))).toBe("accepted");
    expect(await reason(verifyWebhook(SECRET, hd, VECTOR_BODY, { now: () => AT + 3_600_000, toleranceSeconds: 3_601 }))).toBe("accepted");
    expect(await reason(verifyWebhook(SECRET, hd, VECTOR_BODY, { now: () => AT + 61_000, toleranceSeconds: 60 }))).toBe("stale_timestamp");
    expect(await reason(verifyWebhook(SECRET, hd, VECTOR_BODY, { now: () => AT + 9e12, toleranceSeconds: Infinity }))).toBe("accepted");
  });

  it("when a signed body is not a delivery, then it is refused as malformed", async () => {
    for (const body of ["The quick brown fox", JSON.stringify({ event: "inbox.created", data: {} })]) {
      expect(await reason(verifyWebhook(SECRET, h(signDelivery(SECRET, T, body)), body, at))).toBe("malformed_body");
    }
  });
});

/** The vectors every client's verify checks (packages/sdk-python reads the same file). */
interface SharedCase {
  name: string;
  headers: Record<string, string>;
  body: string;
  now: number;
  tolerance?: number | null;
  expect: string;
}
const SHARED = JSON.parse(readFileSync(path.join(__dirname, "..", "test-vectors", "webhook.json"), "utf8")) as {
  secret: string;
  cases: SharedCase[];
};

describe("verifyWebhook on the vectors shared with the other clients (test-vectors/webhook.json)", () => {
  it.each(SHARED.cases.map((c) => [c.name, c] as const))(
    "when the delivery has %s, then it is judged as the vector says",
    async (_name, c) => {
      const toleranceSeconds = c.tolerance === null ? Infinity : c.tolerance;
      const options = { now: () => c.now * 1000, ...(toleranceSeconds === undefined ? {} : { toleranceSeconds }) };
      expect(await reason(verifyWebhook(SHARED.secret, c.headers, c.body, options))).toBe(c.expect);
    },
  );
});

describe("createReplayGuard", () => {
  it("when a delivery id comes again within the TTL, then it is seen; after the TTL, it is new again", () => {
    let now = 1_000_000;
    const guard = createReplayGuard({ ttlMs: 60_000, now: () => now });
    expect(guard.seen("a")).toBe(false);
    expect(guard.seen("b")).toBe(false);
    expect(guard.seen("a")).toBe(true);
    now += 59_999;
    expect(guard.seen("a")).toBe(true);
    now += 2;
    expect(guard.seen("a")).toBe(false);
    expect(guard.seen("a")).toBe(true);
  });

  it("when more than max ids are seen, then the least recently seen is forgotten first", () => {
    const store = new MemoryReplayStore(2);
    const guard = createReplayGuard({ store });
    guard.seen("a");
    guard.seen("b");
    expect(guard.seen("a")).toBe(true); // a is now the most recent
    guard.seen("c"); // b goes
    expect(store.size).toBe(2);
    expect(guard.seen("a")).toBe(true);
    expect(guard.seen("b")).toBe(false);
  });

  it("when max is given to the default store, then it bounds it", () => {
    const guard = createReplayGuard({ max: 3 });
    for (const id of ["1", "2", "3", "4"]) guard.seen(id);
    expect(guard.seen("1")).toBe(false);
    expect(guard.seen("4")).toBe(true);
  });

  it("when handling failed and the id is forgotten, then its retry is new", () => {
    const guard = createReplayGuard();
    expect(guard.seen("d")).toBe(false);
    guard.forget("d");
    expect(guard.seen("d")).toBe(false);
    expect(guard.seen("d")).toBe(true);
  });

  it("when a store of its own (async) is given, then the guard asks it with the TTL", async () => {
    const calls: Array<[string, number]> = [];
    const kept = new Set<string>();
    const store: ReplayStore<Promise<boolean>> = {
      markSeen: (id, ttlMs) => {
        calls.push([id, ttlMs]);
        const had = kept.has(id);
        kept.add(id);
        return Promise.resolve(had);
      },
      forget: (id) => {
        kept.delete(id);
        return Promise.resolve();
      },
    };
    const guard = createReplayGuard({ store, ttlMs: 5_000 });
    expect(await guard.seen("x")).toBe(false);
    expect(await guard.seen("x")).toBe(true);
    await guard.forget("x");
    expect(await guard.seen("x")).toBe(false);
    expect(calls.slice(0, 2)).toEqual([
      ["x", 5_000],
      ["x", 5_000],
    ]);
  });

  it("when the TTL or max is not positive, then it throws", () => {
    expect(() => createReplayGuard({ ttlMs: 0 })).toThrow(RangeError);
    expect(() => createReplayGuard({ max: 0 })).toThrow(RangeError);
  });
});
