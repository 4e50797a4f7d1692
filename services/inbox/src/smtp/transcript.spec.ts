import type { SMTPServerSession } from "smtp-server";
import { MAX_TRANSCRIPT_LINES, REDACTED, SessionLines, TranscriptRecorder, redacted } from "./transcript";

const session = (id: string) => ({ id, remoteAddress: "192.0.2.7", hostNameAppearsAs: "client.test", secure: true }) as SMTPServerSession;

describe("SMTP transcripts", () => {
  it("when a client sends AUTH with credentials, then only the mechanism is kept", () => {
    expect(REDACTED).toBe("[redacted]");
    expect(redacted("AUTH PLAIN dXNlcgB1c2VyAHBhc3M=")).toEqual({ text: "AUTH PLAIN [redacted]", inAuth: true });
    expect(redacted("auth login dXNlcg==")).toEqual({ text: "auth login [redacted]", inAuth: true });
    expect(redacted("AUTH LOGIN")).toEqual({ text: "AUTH LOGIN", inAuth: true });
    // smtp-server's own redaction of the initial response
    expect(redacted("AUTH LOGIN /* secured */").text).toBe("AUTH LOGIN [redacted]");
    // a word that names no mechanism may be a credential itself
    expect(redacted("AUTH dXNlcjpwYXNz").text).toBe("AUTH [redacted]");
    expect(redacted("AUTHORIZE me")).toEqual({ text: "AUTHORIZE me", inAuth: false });
    expect(redacted("MAIL FROM:<a@b>")).toEqual({ text: "MAIL FROM:<a@b>", inAuth: false });
  });

  it("when an AUTH exchange goes on, then every continuation line is redacted until the client's next command or a cancel", () => {
    expect(redacted("dXNlcg==", true)).toEqual({ text: REDACTED, inAuth: true });
    expect(redacted("cGFzc3dvcmQ=", true)).toEqual({ text: REDACTED, inAuth: true });
    expect(redacted("*", true)).toEqual({ text: REDACTED, inAuth: false });
    expect(redacted("MAIL FROM:<a@b>", true)).toEqual({ text: "MAIL FROM:<a@b>", inAuth: false });
    expect(redacted("QUIT", true)).toEqual({ text: "QUIT", inAuth: false });
    expect(redacted("ehlo client", true)).toEqual({ text: "ehlo client", inAuth: false });
    // outside an exchange, a line that is not a command is kept as it came
    expect(redacted("dXNlcg==")).toEqual({ text: "dXNlcg==", inAuth: false });
  });

  it("when the recorder hears AUTH LOGIN and two base64 lines, then the transcript holds none of them", () => {
    const recorder = new TranscriptRecorder(() => 0);
    const lines: Array<[string, string]> = [
      ["send", "220 mx"],
      ["command", "EHLO c"],
      ["send", "250 mx"],
      ["command", "AUTH LOGIN"],
      ["send", "500 Error: command not recognized"],
      ["command", "dXNlcg=="],
      ["send", "500 Error: command not recognized"],
      ["command", "c2VjcmV0"],
      ["send", "500 Error: command not recognized"],
      ["command", "MAIL FROM:<a@b>"],
    ];
    for (const [tnx, text] of lines) recorder.logger.debug({ tnx, cid: "a" }, tnx === "send" ? "S:" : "C:", text);
    const kept = recorder
      .transcript(session("a"), "i1")
      .lines.filter(([, dir]) => dir === "c")
      .map(([, , text]) => text);
    expect(kept).toEqual(["EHLO c", "AUTH LOGIN", REDACTED, REDACTED, "MAIL FROM:<a@b>"]);
  });

  it("when a message has several recipients, then each inbox's transcript holds only its own RCPT TO and its reply", () => {
    const lines = new SessionLines();
    const say = (dir: "c" | "s", text: string) => lines.add(dir, text, 0);
    say("c", "MAIL FROM:<s@x>");
    say("s", "250 Accepted");
    say("c", "RCPT TO:<one@x>");
    lines.claimRcpt("i1");
    say("s", "250 Accepted");
    say("c", "RCPT TO:<nobody@x>");
    say("s", "550 5.1.1 Mailbox unavailable");
    say("c", "RCPT TO:<two@y>");
    lines.claimRcpt("i2");
    say("s", "250 Accepted");
    say("c", "DATA");
    say("s", "354 End data with <CR><LF>.<CR><LF>");
    const text = (inbox: string) => lines.upTo(inbox, { at: 0, dir: "s", text: "250 done" }).map((l) => l.text);
    const common = ["MAIL FROM:<s@x>", "250 Accepted"];
    const tail = ["DATA", "354 End data with <CR><LF>.<CR><LF>", "250 done"];
    expect(text("i1")).toEqual([...common, "RCPT TO:<one@x>", "250 Accepted", ...tail]);
    expect(text("i2")).toEqual([...common, "RCPT TO:<two@y>", "250 Accepted", ...tail]);
    expect(text("i3")).toEqual([...common, ...tail]);
  });

  it("when a second MAIL starts on the connection, then the first transaction's lines go and the session's start stays", () => {
    const lines = new SessionLines();
    ["220 hi", "EHLO c", "250 ok"].forEach((t, i) => lines.add(i % 2 ? "c" : "s", t, i));
    lines.add("c", "MAIL FROM:<one@x>", 3);
    lines.add("s", "250 Accepted", 4);
    lines.add("c", "RSET", 5);
    lines.add("c", "MAIL FROM:<two@x>", 6);
    expect(lines.upTo("i1", { at: 7, dir: "s", text: "250 Accepted" }).map((l) => l.text)).toEqual([
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
    const held = lines.upTo("i1", { at: 1, dir: "s", text: "250 done" });
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
    const t = recorder.transcript(session("a"), "i1", "250 accepted", 2000);
    expect(t).toMatchObject({ ip: "192.0.2.7", helo: "client.test", tls: true, t0: 1000 });
    expect(t.lines).toEqual([
      [0, "s", "220 mx ESMTP"],
      [0, "c", "EHLO client.test"],
      [0, "s", "250-mx Nice to meet you"],
      [0, "s", "250-PIPELINING"],
      [0, "s", "250 SIZE 100"],
      [0, "c", "AUTH PLAIN [redacted]"],
      [1000, "s", "250 accepted"],
    ]);
    expect(recorder.open).toBe(2);
    log.info({ tnx: "close", cid: "a" });
    log.info({ tnx: "close", cid: "b" });
    expect(recorder.open).toBe(0);
  });
});
