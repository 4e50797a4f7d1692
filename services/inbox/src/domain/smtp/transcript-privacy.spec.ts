import { servedTranscript } from "./transcript-privacy";
import type { StoredTranscript } from "./stored-transcript";

const stored = (lines: Array<[string, string]>): StoredTranscript => ({
  ip: "192.0.2.7",
  helo: "client.test",
  tls: false,
  t0: 0,
  lines: lines.map(([dir, text], i) => [i, dir as "c" | "s", text]),
});
const texts = (t: StoredTranscript) => t.lines.map(([, , text]) => text);

describe("transcripts as served", () => {
  // as transcripts were stored before they were kept per inbox: every recipient, and the AUTH lines as sent
  const legacy = stored([
    ["s", "220 mx"],
    ["c", "EHLO client.test"],
    ["s", "250 mx"],
    ["c", "AUTH LOGIN"],
    ["s", "500 Error: command not recognized"],
    ["c", "dXNlcg=="],
    ["s", "500 Error: command not recognized"],
    ["c", "MAIL FROM:<s@x>"],
    ["s", "250 Accepted"],
    ["c", "RCPT TO:<bcc@other.test>"],
    ["s", "250 Accepted"],
    ["c", "RCPT TO:<Me@Own.test>"],
    ["s", "250 Accepted"],
    ["c", "RCPT TO:<nobody@own.test>"],
    ["s", "550 5.1.1 Mailbox unavailable"],
    ["c", "DATA"],
    ["s", "354 End data"],
    ["s", "250 2.0.0 Message accepted"],
  ]);

  it("when a stored transcript names other recipients, then the inbox is served only its own RCPT TO and reply", () => {
    expect(texts(servedTranscript(legacy, "me@own.test"))).toEqual([
      "220 mx",
      "EHLO client.test",
      "250 mx",
      "AUTH LOGIN",
      "500 Error: command not recognized",
      "[redacted]",
      "500 Error: command not recognized",
      "MAIL FROM:<s@x>",
      "250 Accepted",
      "RCPT TO:<Me@Own.test>",
      "250 Accepted",
      "DATA",
      "354 End data",
      "250 2.0.0 Message accepted",
    ]);
  });

  it("when the transcript is another recipient's view, then its own line is the only RCPT TO left and the times stay", () => {
    const served = servedTranscript(legacy, "bcc@other.test");
    expect(texts(served).filter((t) => t.startsWith("RCPT"))).toEqual(["RCPT TO:<bcc@other.test>"]);
    expect(served.lines.find(([, , t]) => t === "DATA")?.[0]).toBe(15);
    expect({ ...served, lines: [] }).toEqual({ ...legacy, lines: [] });
  });

  it("when a transcript is served twice over, then it is the same (stored ones are already per inbox and redacted)", () => {
    const once = servedTranscript(legacy, "me@own.test");
    expect(servedTranscript(once, "me@own.test")).toEqual(once);
  });
});
