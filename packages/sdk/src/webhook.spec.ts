import { deliveryBody } from "../../../services/webhook-dispatcher/src/domain/deliveries/delivery-body.js";
import { signBody } from "../../../services/webhook-dispatcher/src/adapters/webhook-sender.js";
import { WebhookVerificationError } from "./errors.js";
import { verifyWebhook } from "./webhook.js";

const SECRET = "3f1c5a9e0b7d4e21a8c6f0d9b2e4a7c13f1c5a9e0b7d4e21a8c6f0d9b2e4a7c1";
const AT = Date.parse("2026-11-27T07:00:00.000Z");
/** A body and its signature worked out once with `createHmac("sha256", SECRET).update(body, "utf8")`. */
const VECTOR_BODY =
  '{"id":"0193a0c4-7b1e-7c3d-9a2f-1b2c3d4e5f60","event":"email.received","timestamp":"2026-11-27T07:00:00.000Z","data":{"email_id":"0193a0c4-0000-7000-8000-000000000001","inbox_id":"0193a0c4-0000-7000-8000-000000000002","team_id":"0193a0c4-0000-7000-8000-000000000003","from":"Zoë <noreply@acme.test>","to":"qa@x.burnbox.test","subject":"Your code: 482 913 — café","received_at":"2026-11-27T07:00:00.000Z"}}';
const VECTOR_SIGNATURE = "7786bf5ebd739921ef5c7731853661033f377b804fcce7cb8979afb2dae71c4e";

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

  it("when the body and signature are the fixed vector, then it is accepted and parsed", async () => {
    const d = await verifyWebhook(SECRET, { "x-service-signature": VECTOR_SIGNATURE }, VECTOR_BODY, at);
    expect(d).toMatchObject({ id: "0193a0c4-7b1e-7c3d-9a2f-1b2c3d4e5f60", event: "email.received" });
    expect(d.data).toMatchObject({ subject: "Your code: 482 913 — café" });
  });

  it("when the body is given as bytes (a Buffer), then it is accepted alike", async () => {
    const d = await verifyWebhook(SECRET, { "X-Service-Signature": VECTOR_SIGNATURE }, Buffer.from(VECTOR_BODY, "utf8"), at);
    expect(d.event).toBe("email.received");
  });

  it("when the dispatcher signs a delivery body it built, then verifyWebhook accepts exactly that", async () => {
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
    const headers = new Headers({ "x-service-signature": signBody(SECRET, body), "x-service-timestamp": String(AT / 1000) });
    const d = await verifyWebhook(SECRET, headers, body, at);
    expect(d).toEqual(JSON.parse(body));
  });

  it("when the well-known HMAC-SHA256 vector is given, then the signature passes and only the body is refused", async () => {
    const sig = "f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8";
    expect(await reason(verifyWebhook("key", { "x-service-signature": sig }, "The quick brown fox jumps over the lazy dog"))).toBe(
      "malformed_body",
    );
  });

  it.each([
    ["no signature header", {}, VECTOR_BODY, SECRET, "missing_signature"],
    ["a signature of another secret", { "x-service-signature": signBody("other", VECTOR_BODY) }, VECTOR_BODY, SECRET, "bad_signature"],
    [
      "one changed byte of the body",
      { "x-service-signature": VECTOR_SIGNATURE },
      VECTOR_BODY.replace("482", "483"),
      SECRET,
      "bad_signature",
    ],
    [
      "re-serialized JSON",
      { "x-service-signature": VECTOR_SIGNATURE },
      JSON.stringify(JSON.parse(VECTOR_BODY), null, 1),
      SECRET,
      "bad_signature",
    ],
    ["a signature that is not hex", { "x-service-signature": "zz".repeat(32) }, VECTOR_BODY, SECRET, "bad_signature"],
    ["a truncated signature", { "x-service-signature": VECTOR_SIGNATURE.slice(0, 62) }, VECTOR_BODY, SECRET, "bad_signature"],
  ])("when the delivery has %s, then it is refused", async (_what, headers, body, secret, why) => {
    expect(await reason(verifyWebhook(secret, headers as Record<string, string>, body, at))).toBe(why);
  });

  it("when the signature is upper-case hex, then it is accepted", async () => {
    expect(await reason(verifyWebhook(SECRET, { "x-service-signature": VECTOR_SIGNATURE.toUpperCase() }, VECTOR_BODY, at))).toBe(
      "accepted",
    );
  });

  it("when the signed timestamp is older or newer than the window, then it is refused as stale; inside it, accepted", async () => {
    const h = { "x-service-signature": VECTOR_SIGNATURE };
    expect(await reason(verifyWebhook(SECRET, h, VECTOR_BODY, { now: () => AT + 301_000 }))).toBe("stale_timestamp");
    expect(await reason(verifyWebhook(SECRET, h, VECTOR_BODY, { now: () => AT - 301_000 }))).toBe("stale_timestamp");
    expect(await reason(verifyWebhook(SECRET, h, VECTOR_BODY, { now: () => AT + 299_000 }))).toBe("accepted");
    expect(await reason(verifyWebhook(SECRET, h, VECTOR_BODY, { now: () => AT + 3_600_000, toleranceSeconds: 3_601 }))).toBe("accepted");
    expect(await reason(verifyWebhook(SECRET, h, VECTOR_BODY, { now: () => AT + 9e12, toleranceSeconds: Infinity }))).toBe("accepted");
  });

  it("when a signed body has no timestamp, then it is refused as malformed", async () => {
    const body = JSON.stringify({ id: "x", event: "inbox.created", data: {} });
    expect(await reason(verifyWebhook(SECRET, { "x-service-signature": signBody(SECRET, body) }, body))).toBe("malformed_body");
  });
});
