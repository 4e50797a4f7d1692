import {
  DEFERRED,
  TOO_BIG,
  attemptKey,
  behaviourFrom,
  declaredSizeOf,
  deferred,
  heldForMs,
  messageIdOf,
  rcptVerdict,
  tooBigFor,
} from "./behaviour-rules";
import { expandTranscript, storedTranscript } from "./stored-transcript";

const inbox = (behaviour: Parameters<typeof rcptVerdict>[0]) => ({ inboxId: "i", behaviour });

describe("SMTP behaviour rules", () => {
  it("when an inbox rejects recipients, then RCPT answers its code and message as they are, whatever the size", () => {
    const b = { reject_rcpt: { code: 550, message: "5.7.1 Go away" }, max_size_bytes: 10 };
    expect(rcptVerdict(b, 5)).toEqual({ code: 550, text: "5.7.1 Go away" });
    expect(rcptVerdict(b, null)).toEqual({ code: 550, text: "5.7.1 Go away" });
  });

  it("when MAIL FROM declared a SIZE above the inbox's limit, then RCPT answers 552; at or below it, or undeclared, it accepts", () => {
    const b = { max_size_bytes: 1000 };
    expect(rcptVerdict(b, 1001)).toEqual(TOO_BIG);
    expect(rcptVerdict(b, 1000)).toBeNull();
    expect(rcptVerdict(b, null)).toBeNull();
    expect(rcptVerdict(null, 10 ** 9)).toBeNull();
    expect(rcptVerdict({ delay_ms: 5 }, 10 ** 9)).toBeNull();
  });

  it("when SIZE= is read, then only a decimal number counts", () => {
    expect(declaredSizeOf({ SIZE: "2048" })).toBe(2048);
    expect(declaredSizeOf({ SIZE: "12k" })).toBeNull();
    expect(declaredSizeOf({ SIZE: true })).toBeNull();
    expect(declaredSizeOf({})).toBeNull();
    expect(declaredSizeOf(null)).toBeNull();
  });

  it("when a message is above any recipient inbox's limit, then it is too big; exactly the limit is not", () => {
    expect(tooBigFor([inbox(null), inbox({ max_size_bytes: 100 })], 101)).toBe(true);
    expect(tooBigFor([inbox(null), inbox({ max_size_bytes: 100 })], 100)).toBe(false);
    expect(tooBigFor([inbox({ defer_first: 2 })], 10 ** 9)).toBe(false);
  });

  it("when recipients' inboxes delay, then the reply waits for the longest; none: 0", () => {
    expect(heldForMs([inbox({ delay_ms: 200 }), inbox({ delay_ms: 1500 }), inbox(null)])).toBe(1500);
    expect(heldForMs([inbox(null), inbox({ delay_ms: 0 })])).toBe(0);
    expect(heldForMs([])).toBe(0);
  });

  it("when defer_first is n, then attempts 1..n are deferred and every later one is accepted", () => {
    const b = { defer_first: 3 };
    expect([1, 2, 3, 4, 5, 50].map((n) => deferred(b, n))).toEqual([true, true, true, false, false, false]);
    expect(deferred({ delay_ms: 1 }, 1)).toBe(false);
    expect(deferred(null, 1)).toBe(false);
    expect(DEFERRED.code).toBe(451);
  });

  it("when attempts are keyed, then sender, recipient and Message-ID make the key (addresses case-insensitively), per inbox", () => {
    const base = { inboxId: "a", mailFrom: "S@x.test", rcptTo: "r@y.test", messageId: "<1@x>" };
    expect(attemptKey(base)).toBe(attemptKey({ ...base, mailFrom: "s@X.TEST" }));
    expect(attemptKey(base)).not.toBe(attemptKey({ ...base, messageId: "<2@x>" }));
    expect(attemptKey(base)).not.toBe(attemptKey({ ...base, rcptTo: "q@y.test" }));
    expect(attemptKey(base)).not.toBe(attemptKey({ ...base, mailFrom: "t@x.test" }));
    expect(attemptKey(base)).not.toBe(attemptKey({ ...base, inboxId: "b" }));
    expect(attemptKey({ ...base, messageId: null })).toBe(attemptKey({ ...base, messageId: null }));
  });

  it("when the Message-ID is read from the raw message, then it is the header's (folded or not), never the body's", () => {
    const raw = (s: string) => Buffer.from(s.replace(/\n/g, "\r\n"));
    expect(messageIdOf(raw("From: a@b\nMessage-ID: <abc@x.test>\nSubject: s\n\nbody"))).toBe("<abc@x.test>");
    expect(messageIdOf(raw("From: a@b\nmessage-id:\n <folded@x.test>\n\nbody"))).toBe("<folded@x.test>");
    expect(messageIdOf(raw("From: a@b\nSubject: s\n\nMessage-ID: <in-body@x>"))).toBeNull();
    expect(messageIdOf(Buffer.from("Message-Id: <lf@x>\n\nbody"))).toBe("<lf@x>");
  });

  it("when a stored behaviour is read, then a valid one is kept and anything else is none", () => {
    expect(behaviourFrom({ defer_first: 2 })).toEqual({ defer_first: 2 });
    expect(behaviourFrom(null)).toBeNull();
    expect(behaviourFrom({ defer_first: 99 })).toBeNull();
  });

  it("when a transcript is stored and read back, then every line keeps its time, direction and text", () => {
    const lines = [
      { at: 1_700_000_000_000, dir: "s" as const, text: "220 mx ESMTP" },
      { at: 1_700_000_000_012, dir: "c" as const, text: "EHLO client" },
    ];
    const stored = storedTranscript({ ip: "127.0.0.1", helo: "client", tls: false }, lines);
    expect(stored.lines).toEqual([
      [0, "s", "220 mx ESMTP"],
      [12, "c", "EHLO client"],
    ]);
    expect(expandTranscript(JSON.parse(JSON.stringify(stored)) as typeof stored)).toEqual({
      client_ip: "127.0.0.1",
      helo: "client",
      tls: false,
      lines: [
        { at: "2023-11-14T22:13:20.000Z", dir: "s", text: "220 mx ESMTP" },
        { at: "2023-11-14T22:13:20.012Z", dir: "c", text: "EHLO client" },
      ],
    });
  });
});
