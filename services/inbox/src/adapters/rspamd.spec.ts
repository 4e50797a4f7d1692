import { createServer, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { createLogger } from "@burnbox/service-kit/runtime";
import { rspamdScorer, spamResultOf } from "./rspamd";

const origin = { ip: "::ffff:192.0.2.1", helo: "mx.example.com", sender: "a@example.com", recipients: ["b@example.org"] };
const raw = Buffer.from("Subject: hi\r\nFrom: a@example.com\r\n\r\nhello\r\n");
const logger = createLogger({ service: "inbox-smtp", level: "silent" });

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
});
