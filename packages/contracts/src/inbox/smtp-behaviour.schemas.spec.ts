import { CreateInboxBody, UpdateInboxBody } from "./inboxes.schemas";
import { SmtpBehaviour, normalizedSmtpBehaviour } from "./smtp-behaviour.schemas";

describe("SMTP behaviour (extensions section 8)", () => {
  it("when every field is in range, then the behaviour is accepted as given", () => {
    const b = { reject_rcpt: { code: 450, message: "4.2.1 Mailbox busy" }, defer_first: 10, delay_ms: 30_000, max_size_bytes: 1 };
    expect(SmtpBehaviour.parse(b)).toEqual(b);
    expect(SmtpBehaviour.parse({ reject_rcpt: { code: 599, message: "x" }, defer_first: 1, delay_ms: 0 })).toBeTruthy();
    expect(SmtpBehaviour.parse({})).toEqual({});
    expect(SmtpBehaviour.parse({ defer_first: null })).toEqual({ defer_first: null });
  });

  it.each([
    ["an unknown field", { greylist: true }],
    ["an unknown field of reject_rcpt", { reject_rcpt: { code: 550, message: "no", extra: 1 } }],
    ["a code below 450", { reject_rcpt: { code: 449, message: "no" } }],
    ["a code above 599", { reject_rcpt: { code: 600, message: "no" } }],
    ["a code that is not an integer", { reject_rcpt: { code: 550.5, message: "no" } }],
    ["an empty message", { reject_rcpt: { code: 550, message: "" } }],
    ["a message with a line break", { reject_rcpt: { code: 550, message: "no\r\n250 ok" } }],
    ["a message that is not ASCII", { reject_rcpt: { code: 550, message: "nö" } }],
    ["a message over 200 characters", { reject_rcpt: { code: 550, message: "x".repeat(201) } }],
    ["defer_first 0", { defer_first: 0 }],
    ["defer_first 11", { defer_first: 11 }],
    ["a negative delay", { delay_ms: -1 }],
    ["a delay above 30 s", { delay_ms: 30_001 }],
    ["max_size_bytes 0", { max_size_bytes: 0 }],
    ["a size that is a string", { max_size_bytes: "100" }],
  ])("when the behaviour has %s, then it is refused", (_what, b) => {
    expect(SmtpBehaviour.safeParse(b).success).toBe(false);
  });

  it("when a behaviour is stored, then unset fields go and an empty one is none", () => {
    expect(normalizedSmtpBehaviour({ defer_first: 2, delay_ms: null, reject_rcpt: null })).toEqual({ defer_first: 2 });
    expect(normalizedSmtpBehaviour({ delay_ms: null })).toBeNull();
    expect(normalizedSmtpBehaviour({})).toBeNull();
    expect(normalizedSmtpBehaviour(null)).toBeNull();
    expect(normalizedSmtpBehaviour({ delay_ms: 0 })).toEqual({ delay_ms: 0 });
  });

  it("when an inbox is created or patched, then smtp_behaviour is optional and a PATCH with an unknown field is refused", () => {
    const id = "3f2b7c1e-8a4d-4c2e-9b1a-2d3e4f5a6b7c";
    expect(CreateInboxBody.parse({ domain_assignment_id: id, smtp_behaviour: { delay_ms: 5 } }).smtp_behaviour).toEqual({ delay_ms: 5 });
    expect(CreateInboxBody.safeParse({ domain_assignment_id: id, smtp_behaviour: { delay_ms: 5, x: 1 } }).success).toBe(false);
    expect(UpdateInboxBody.parse({})).toEqual({});
    expect(UpdateInboxBody.parse({ smtp_behaviour: null })).toEqual({ smtp_behaviour: null });
    expect(UpdateInboxBody.safeParse({ ttl: "1h" }).success).toBe(false);
  });
});
