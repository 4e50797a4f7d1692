import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { outboundPolicy } from "@burnbox/service-kit/security";
import { guardedLinkProber } from "./link-prober";

describe("guardedLinkProber", () => {
  let server: Server;
  let port: number;
  const hits: string[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      hits.push(`${req.method} ${req.url}`);
      if (req.url === "/moved") return res.writeHead(301, { location: "/there" }).end();
      res.writeHead(200).end("a body that is never read");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  const signal = () => AbortSignal.timeout(2_000);
  const noDns = { servers: [], timeout_ms: 500 };
  const allowing = guardedLinkProber(outboundPolicy({ dns: noDns, allowedTargets: ["127.0.0.1"] }));
  const strict = guardedLinkProber(outboundPolicy({ dns: noDns }));

  it("when the target is on the operator's allow-list, then the request is made and its status and Location come back", async () => {
    expect(await allowing.probe(`http://127.0.0.1:${port}/page`, "HEAD", signal())).toEqual({ status: 200, location: null });
    expect(await allowing.probe(`http://127.0.0.1:${port}/moved`, "GET", signal())).toEqual({ status: 301, location: "/there" });
    expect(hits).toEqual(["HEAD /page", "GET /moved"]);
  });

  it("when the target is loopback, private, link-local or localhost and not allow-listed, then it is refused without a request", async () => {
    hits.length = 0;
    for (const url of [
      `http://127.0.0.1:${port}/`,
      `http://localhost:${port}/`,
      "http://10.1.2.3/",
      "http://169.254.169.254/",
      `http://[::1]:${port}/`,
    ]) {
      expect(await strict.probe(url, "HEAD", signal())).toEqual({ error: "refused" });
    }
    expect(hits).toEqual([]);
  });

  it("when the URL is not http(s) or carries credentials, then it is invalid", async () => {
    expect(await allowing.probe("ftp://127.0.0.1/file", "HEAD", signal())).toEqual({ error: "invalid" });
    expect(await allowing.probe(`http://u:p@127.0.0.1:${port}/`, "HEAD", signal())).toEqual({ error: "invalid" });
    expect(await allowing.probe("http://exa mple.org/", "HEAD", signal())).toEqual({ error: "invalid" });
  });

  it("when nothing listens on the port, then the link is unreachable", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    expect(await allowing.probe(`http://127.0.0.1:${closedPort}/`, "HEAD", signal())).toEqual({ error: "unreachable" });
  });

  it("when the link's time is already up, then it is a timeout", async () => {
    expect(await allowing.probe(`http://127.0.0.1:${port}/page`, "HEAD", AbortSignal.abort())).toEqual({ error: "timeout" });
  });
});
