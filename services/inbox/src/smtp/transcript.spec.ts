import type { SMTPServerSession } from "smtp-server";
import { MAX_TRANSCRIPT_LINES, REDACTED, SessionLines, TranscriptRecorder, redacted } from "./transcript";

const session = (id: string) => ({ id, remoteAddress: "192.0.2.7", hostNameAppearsAs: "client.test", secure: true }) as SMTPServerSession;

describe("SMTP transcripts", () => {
  it("when a client sends AUTH with credentials, then only the mechanism is kept", () => {
    expect(redacted("AUTH PLAIN dXNlcgB1c2VyAHBhc3M=")).toBe(`AUTH PLAIN ${REDACTED}`);
    expect(redacted("auth login dXNlcg==")).toBe(`auth login ${REDACTED}`);
    expect(redacted("AUTH LOGIN")).toBe("AUTH LOGIN");
    expect(redacted("MAIL FROM:<a@b>")).toBe("MAIL FROM:<a@b>");
  });

  it("when a second MAIL starts on the connection, then the first transaction's lines go and the session's start stays", () => {
    const lines = new SessionLines();
    ["220 hi", "EHLO c", "250 ok"].forEach((t, i) => lines.add(i % 2 ? "c" : "s", t, i));
    lines.add("c", "MAIL FROM:<one@x>", 3);
    lines.add("s", "250 Accepted", 4);
    lines.add("c", "RSET", 5);
    lines.add("c", "MAIL FROM:<two@x>", 6);
    expect(lines.upTo({ at: 7, dir: "s", text: "250 Accepted" }).map((l) => l.text)).toEqual([
      "220 hi",
      "EHLO c",
      "250 ok",
      "MAIL FROM:<two@x>",
      "250 Accepted",
    ]);
  });

  it("when a connection says more than the limit, then the lines beyond it are dropped but the final reply is kept", () => {
    const lines = new SessionLines();
    for (let i = 0; i < MAX_TRANSCRIPT_LINES + 50; i++) lines.add("c", "NOOP", i);
    const held = lines.upTo({ at: 1, dir: "s", text: "250 done" });
    expect(held).toHaveLength(MAX_TRANSCRIPT_LINES + 1);
    expect(held.at(-1)?.text).toBe("250 done");
  });

  it("when smtp-server logs a connection, then commands and replies are recorded by connection, DATA's body never, and closing forgets it", () => {
    let now = 1000;
    const recorder = new TranscriptRecorder(() => now);
    const log = recorder.logger;
    log.debug({ tnx: "send", cid: "a" }, "S:", "220 mx ESMTP");
    log.debug({ tnx: "command", cid: "a" }, "C:", "EHLO client.test");
    log.debug({ tnx: "send", cid: "a" }, "S:", "250-mx Nice to meet you\r\n250-PIPELINING\r\n250 SIZE 100");
    log.debug({ tnx: "command", cid: "b" }, "C:", "EHLO other");
    log.debug({ tnx: "command", cid: "a" }, "C:", "AUTH PLAIN c2VjcmV0");
    log.debug({ tnx: "data", cid: "a" }, "C: <%s bytes of DATA>", "12");
    now = 1500;
    const t = recorder.transcript(session("a"), "250 accepted", 2000);
    expect(t).toMatchObject({ ip: "192.0.2.7", helo: "client.test", tls: true, t0: 1000 });
    expect(t.lines).toEqual([
      [0, "s", "220 mx ESMTP"],
      [0, "c", "EHLO client.test"],
      [0, "s", "250-mx Nice to meet you"],
      [0, "s", "250-PIPELINING"],
      [0, "s", "250 SIZE 100"],
      [0, "c", `AUTH PLAIN ${REDACTED}`],
      [1000, "s", "250 accepted"],
    ]);
    expect(recorder.open).toBe(2);
    log.info({ tnx: "close", cid: "a" });
    log.info({ tnx: "close", cid: "b" });
    expect(recorder.open).toBe(0);
  });
});
