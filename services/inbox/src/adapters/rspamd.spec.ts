import { createServer, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { createLogger } from "@burnbox/service-kit/runtime";
import { httpAnswerOf, rspamdScorer, spamResultOf } from "./rspamd";

const origin = { ip: "::ffff:192.0.2.1", helo: "mx.example.com", sender: "a@example.com", recipients: ["b@example.org"] };
const raw = Buffer.from("Subject: hi\r\nFrom: a@example.com\r\n\r\nhello\r\n");
const logger = createLogger({ service: "inbox-smtp", level: "silent" });
/** A logger whose lines are kept, to see what was logged and how often. */
const recordingLogger = () => {
  const lines: Array<{ level: number; msg: string }> = [];
  const recording = createLogger({
    service: "inbox-smtp",
    level: "info",
    destination: { write: (l: string) => void lines.push(JSON.parse(l) as { level: number; msg: string }) },
  });
  return { lines, recording };
};

describe("spamResultOf", () => {
  it("when rspamd answers a verdict, then it is scored with every symbol, highest first", () => {
    const r = spamResultOf({
      score: 15,
      required_score: 15,
      action: "reject",
      symbols: {
        GTUBE: { name: "GTUBE", score: 0, metric_score: 0 },
        RDNS_NONE: { name: "RDNS_NONE", score: 1, description: "Cannot resolve reverse DNS" },
      },
    });
    expect(r).toEqual({
      status: "scored",
      score: 15,
      required_score: 15,
      action: "reject",
      symbols: [
        { name: "RDNS_NONE", score: 1, description: "Cannot resolve reverse DNS" },
        { name: "GTUBE", score: 0 },
      ],
    });
  });

  it.each([null, "x", { score: 1 }, { score: 1, required_score: 15, action: "drop it" }])(
    "when the answer is %p, then it is no verdict",
    (b) => {
      expect(spamResultOf(b)).toBeNull();
    },
  );
});

// an answer of Debian's rspamd 3.4 (deploy/local/rspamd.cjs's configuration) to an 8 KiB message,
// as it came off the socket: Content-Length, no chunks, and `Connection: close` whatever was asked
const VERDICT =
  '{"is_skipped":false,"score":1.0,"required_score":15.0,"action":"no action","symbols":{"MIME_TRACE":{"name":"MIME_TRACE","score":0.0,"metric_score":0.0,"options":["0:+"]},' +
  '"RDNS_NONE":{"name":"RDNS_NONE","score":1.0,"metric_score":1.0,"description":"Cannot resolve reverse DNS for sender\'s IP"},' +
  '"MIME_GOOD":{"name":"MIME_GOOD","score":-0.100000,"metric_score":-0.100000,"description":"Known content-type","options":["text/plain"]}},' +
  '"messages":{},"message-id":"x1@example.com","time_real":0.152090}';
const ANSWER = `HTTP/1.1 200 OK\r\nConnection: close\r\nServer: rspamd/3.4\r\nDate: Fri, 04 Dec 2026 18:26:17 GMT\r\nContent-Length: ${VERDICT.length}\r\nContent-Type: application/json\r\n\r\n${VERDICT}`;

describe("httpAnswerOf", () => {
  const bytes = (s: string) => Buffer.from(s, "latin1");

  it("when rspamd's answer is read whole, then it is its status and its Content-Length bytes of body", () => {
    expect(httpAnswerOf(bytes(ANSWER), false)).toEqual({ status: 200, body: bytes(VERDICT) });
  });

  it("when the answer is split anywhere, then every part before the last asks for more", () => {
    for (const at of [1, 8, 15, ANSWER.indexOf("\r\n\r\n") + 2, ANSWER.indexOf("\r\n\r\n") + 4, ANSWER.length - 1]) {
      expect(httpAnswerOf(bytes(ANSWER.slice(0, at)), false)).toBe("more");
    }
  });

  it("when the server closes before the body's end or the head's, then it is no answer", () => {
    expect(httpAnswerOf(bytes(ANSWER.slice(0, -1)), true)).toBe("invalid");
    expect(httpAnswerOf(bytes("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n"), true)).toBe("invalid");
    expect(httpAnswerOf(Buffer.alloc(0), true)).toBe("invalid");
  });

  it("when the answer has bytes past its Content-Length, then the body is the Content-Length bytes", () => {
    expect(httpAnswerOf(bytes("HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\n{}junk"), false)).toEqual({ status: 200, body: bytes("{}") });
  });

  it("when there is no Content-Length, then the body is everything up to the close", () => {
    const noLength = "HTTP/1.0 200 OK\r\nContent-Type: application/json\r\n\r\n{}";
    expect(httpAnswerOf(bytes(noLength), false)).toBe("more");
    expect(httpAnswerOf(bytes(noLength), true)).toEqual({ status: 200, body: bytes("{}") });
  });

  it("when the status is not 200, then it is the answer with that status (the scorer makes it unavailable)", () => {
    expect(httpAnswerOf(bytes("HTTP/1.1 503 Service Unavailable\r\nContent-Length: 2\r\n\r\nno"), false)).toEqual({
      status: 503,
      body: bytes("no"),
    });
    expect(httpAnswerOf(bytes("HTTP/1.1 404\r\nContent-Length: 0\r\n\r\n"), false)).toEqual({ status: 404, body: Buffer.alloc(0) });
  });

  it.each([
    ["another protocol", "SSH-2.0-OpenSSH_9.2\r\n\r\n"],
    ["HTTP/2", "HTTP/2 200\r\n\r\n"],
    ["a status that is not 3 digits", "HTTP/1.1 20 OK\r\n\r\n"],
    ["a header line without a colon", "HTTP/1.1 200 OK\r\nContent-Length 2\r\n\r\n{}"],
    ["a Content-Length that is not a number", "HTTP/1.1 200 OK\r\nContent-Length: 2x\r\n\r\n{}"],
    ["two different Content-Lengths", "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{} "],
    ["a chunked body (not sent to an HTTP/1.0 request)", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n"],
  ])("when the answer has %s, then it is no answer", (_what, answer) => {
    expect(httpAnswerOf(bytes(answer), true)).toBe("invalid");
  });
});

describe("rspamdScorer", () => {
  let servers: Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
    servers = [];
  });
  const listening = async (onConnection: (socket: Socket) => void): Promise<number> => {
    const server = createServer(onConnection);
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    return (server.address() as AddressInfo).port;
  };

  it("when no URL is configured, then every email is disabled", async () => {
    await expect(rspamdScorer({ url: null, timeoutMs: 100 }, logger).score(raw, origin)).resolves.toEqual({ status: "disabled" });
  });

  it("when nothing listens at the URL, then the score is unavailable", async () => {
    const port = await listening(() => undefined);
    await new Promise((r) => servers.pop()!.close(r));
    await expect(rspamdScorer({ url: `http://127.0.0.1:${port}`, timeoutMs: 2000 }, logger).score(raw, origin)).resolves.toEqual({
      status: "unavailable",
    });
  });

  it("when the scanner takes the request and never answers, then the score is unavailable at the budget", async () => {
    const sockets: Array<Socket> = [];
    const port = await listening((s) => sockets.push(s));
    const scored = rspamdScorer({ url: `http://127.0.0.1:${port}`, timeoutMs: 200 }, logger).score(raw, origin);
    await expect(scored).resolves.toEqual({ status: "unavailable" });
    for (const s of sockets) s.destroy();
  });

  it("when the scanner answers something other than a verdict, then the score is unavailable", async () => {
    const port = await listening((s) => {
      s.once("data", () => s.end("HTTP/1.1 500 Internal Server Error\r\nContent-Length: 2\r\nConnection: close\r\n\r\nno"));
    });
    await expect(rspamdScorer({ url: `http://127.0.0.1:${port}`, timeoutMs: 2000 }, logger).score(raw, origin)).resolves.toEqual({
      status: "unavailable",
    });
  });
  it("when rspamd's answer comes in pieces, then the message is scored, and the request was one HTTP/1.0 head with the envelope and the body", async () => {
    let request = Buffer.alloc(0);
    const port = await listening((s) => {
      s.on("data", (c: Buffer) => {
        request = Buffer.concat([request, c]);
        if (request.length < request.indexOf("\r\n\r\n") + 4 + raw.length) return;
        // the answer in three writes, apart in time, then rspamd's close
        const answer = Buffer.from(ANSWER, "latin1");
        s.write(answer.subarray(0, 10));
        setTimeout(() => s.write(answer.subarray(10, 200)), 20);
        setTimeout(() => s.end(answer.subarray(200)), 40);
      });
    });
    const scorer = rspamdScorer({ url: `http://127.0.0.1:${port}/`, timeoutMs: 2000 }, logger);
    const helo = "mx.example.com\r\nX-Injected: 1\u0000";
    await expect(scorer.score(raw, { ...origin, helo, recipients: ["b@example.org", "c@example.org"] })).resolves.toEqual({
      status: "scored",
      score: 1,
      required_score: 15,
      action: "no action",
      symbols: [
        { name: "RDNS_NONE", score: 1, description: "Cannot resolve reverse DNS for sender's IP" },
        { name: "MIME_TRACE", score: 0 },
        { name: "MIME_GOOD", score: -0.1, description: "Known content-type" },
      ],
    });
    const headEnd = request.indexOf("\r\n\r\n");
    expect(request.toString("latin1", 0, headEnd).split("\r\n")).toEqual([
      "POST /checkv2 HTTP/1.0",
      `Host: 127.0.0.1:${port}`,
      `Content-Length: ${raw.length}`,
      "IP: 192.0.2.1",
      "Helo: mx.example.com X-Injected: 1 ",
      "From: a@example.com",
      "Rcpt: b@example.org",
      "Rcpt: c@example.org",
    ]);
    expect(request.subarray(headEnd + 4)).toEqual(raw);
  });

  it("when the envelope has non-Latin-1 addresses (SMTPUTF8), then they go to rspamd as UTF-8 and the message is scored", async () => {
    // http.request refused such a header value (ERR_INVALID_CHAR, thrown where the score's promise was made)
    let request = Buffer.alloc(0);
    const port = await listening((s) => {
      s.on("data", (c: Buffer) => {
        request = Buffer.concat([request, c]);
        if (request.length >= request.indexOf("\r\n\r\n") + 4 + raw.length) s.end(ANSWER);
      });
    });
    const scorer = rspamdScorer({ url: `http://127.0.0.1:${port}`, timeoutMs: 2000 }, logger);
    await expect(scorer.score(raw, { ...origin, sender: "用户@例子.广告", recipients: ["jörg@example.org"] })).resolves.toMatchObject({
      status: "scored",
    });
    const head = request.subarray(0, request.indexOf("\r\n\r\n")).toString("utf8").split("\r\n");
    expect(head).toContain("From: 用户@例子.广告");
    expect(head).toContain("Rcpt: jörg@example.org");
  });

  it("when the answer is whole but the server keeps the connection, then the score does not wait for the close", async () => {
    const closed: Promise<void>[] = [];
    const port = await listening((s) => {
      closed.push(new Promise((r) => s.on("close", () => r())));
      s.once("data", () => s.write(ANSWER));
    });
    const started = Date.now();
    await expect(rspamdScorer({ url: `http://127.0.0.1:${port}`, timeoutMs: 5000 }, logger).score(raw, origin)).resolves.toMatchObject({
      status: "scored",
    });
    expect(Date.now() - started).toBeLessThan(900);
    // and the client closes it itself, after its linger
    await closed[0];
  });

  it("when the answer is larger than the bound, then the score is unavailable", async () => {
    const port = await listening((s) => {
      s.once("data", () => {
        s.write(`HTTP/1.1 200 OK\r\nContent-Length: ${2 * 1024 * 1024}\r\n\r\n`);
        s.write(Buffer.alloc(2 * 1024 * 1024, 0x20), () => s.end());
      });
      s.on("error", () => undefined);
    });
    const { lines, recording } = recordingLogger();
    await expect(rspamdScorer({ url: `http://127.0.0.1:${port}`, timeoutMs: 5000 }, recording).score(raw, origin)).resolves.toEqual({
      status: "unavailable",
    });
    expect(lines.map((l) => l.msg)).toEqual(["spam scoring unavailable: answer too large; emails are stored without a score"]);
  });

  it.each([
    ["closes before the body's end", ANSWER.slice(0, -5), "answer broken off"],
    ["closes before the head's end", "HTTP/1.1 200 OK\r\nContent-Len", "answer broken off"],
    ["closes at once", "", "answer broken off"],
    ["answers another protocol", "SSH-2.0-OpenSSH_9.2\r\n\r\n", "answer is not HTTP"],
    [
      "answers 200 with JSON that is not a verdict",
      'HTTP/1.1 200 OK\r\nContent-Length: 13\r\n\r\n{"error":"x"}',
      "answer is not a verdict",
    ],
    ["answers 200 with what is not JSON", "HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\n{no}", "answer is not a verdict"],
  ])("when the scanner %s, then the score is unavailable", async (_what, answer, why) => {
    const port = await listening((s) => {
      s.once("data", () => s.end(answer));
    });
    const { lines, recording } = recordingLogger();
    await expect(rspamdScorer({ url: `http://127.0.0.1:${port}`, timeoutMs: 2000 }, recording).score(raw, origin)).resolves.toEqual({
      status: "unavailable",
    });
    expect(lines.map((l) => l.msg)).toEqual([`spam scoring unavailable: ${why}; emails are stored without a score`]);
  });

  it("when rspamd goes away and comes back, then the outage is logged once as it starts and once as it ends", async () => {
    const { lines, recording } = recordingLogger();
    let up = false;
    const port = await listening((s) => {
      s.once("data", () => s.end(up ? ANSWER : "HTTP/1.1 500 Internal Server Error\r\nContent-Length: 0\r\n\r\n"));
    });
    const scorer = rspamdScorer({ url: `http://127.0.0.1:${port}`, timeoutMs: 2000 }, recording);
    const statuses: string[] = [];
    for (const state of [false, false, false, true, true, false]) {
      up = state;
      statuses.push((await scorer.score(raw, origin)).status);
    }
    expect(statuses).toEqual(["unavailable", "unavailable", "unavailable", "scored", "scored", "unavailable"]);
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      [40, "spam scoring unavailable: HTTP 500; emails are stored without a score"],
      [30, "spam scoring available again"],
      [40, "spam scoring unavailable: HTTP 500; emails are stored without a score"],
    ]);
  });
});
