import http, { type Server, type ServerResponse } from "node:http";
import net, { type AddressInfo } from "node:net";
import express from "express";
import { createLogger } from "@burnbox/service-kit/runtime";
import { waitFor } from "@burnbox/test-kit";
import { loadGatewayConfig } from "../config";
import { Forwarder, proxyUpgrade } from "./proxy";
import { isUpstreamList, mayTryNext, parseUpstreamList, UpstreamPool } from "./upstreams";

const logger = createLogger({ service: "api-gateway-test", level: "silent" });
const refused = Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });

describe("upstream replicas: which one a request goes to", () => {
  it("takes turns, each request listing every replica once from its own starting point", () => {
    const pool = new UpstreamPool(parseUpstreamList("http://a:1, http://b:2,http://c:3"));
    const hosts = () => pool.attemptOrder().map((u) => u.host);
    expect(hosts()).toEqual(["a:1", "b:2", "c:3"]);
    expect(hosts()).toEqual(["b:2", "c:3", "a:1"]);
    expect(hosts()).toEqual(["c:3", "a:1", "b:2"]);
    expect(hosts()).toEqual(["a:1", "b:2", "c:3"]);
  });

  it("with one URL, every request goes to it and there is nothing to fall back to", () => {
    const pool = new UpstreamPool(parseUpstreamList("http://127.0.0.1:8103"));
    for (let i = 0; i < 3; i++) expect(pool.attemptOrder().map((u) => u.href)).toEqual(["http://127.0.0.1:8103/"]);
  });

  it("moves on only when the replica refused the connection before a byte was sent", () => {
    expect(mayTryNext(refused, false)).toBe(true);
    expect(mayTryNext(refused, true)).toBe(false);
    expect(mayTryNext(Object.assign(new Error("reset"), { code: "ECONNRESET" }), false)).toBe(false);
    expect(mayTryNext(new Error("upstream timeout"), false)).toBe(false);
    expect(mayTryNext(null, false)).toBe(false);
    // a name with several addresses: moves on only when every address refused
    expect(mayTryNext(new AggregateError([refused, refused]), false)).toBe(true);
    expect(mayTryNext(new AggregateError([refused, new Error("timeout")]), false)).toBe(false);
  });

  it("accepts one http(s) URL or a comma-separated list, and nothing else", () => {
    expect(isUpstreamList("http://127.0.0.1:8101")).toBe(true);
    expect(isUpstreamList("http://127.0.0.1:8101,http://127.0.0.1:9101")).toBe(true);
    expect(isUpstreamList("https://identity.internal, http://10.0.0.2:8101 ,")).toBe(true);
    expect(isUpstreamList("")).toBe(false);
    expect(isUpstreamList(" , ")).toBe(false);
    expect(isUpstreamList("http://ok:1,not a url")).toBe(false);
    expect(isUpstreamList("ftp://files:21")).toBe(false);
    expect(() => parseUpstreamList("")).not.toThrow();
    expect(() => new UpstreamPool([])).toThrow();
  });

  it("reads the lists from BB_SERVICES_<NAME>_URL and refuses a malformed one at start", () => {
    const base = { BB_INTERNAL_SECRET: "i".repeat(32), BB_AUTH_JWT_SECRET: "j".repeat(32) };
    const config = loadGatewayConfig({ ...base, BB_SERVICES_INBOX_URL: "http://127.0.0.1:1,http://127.0.0.1:2" });
    expect(parseUpstreamList(config.services.inbox_url).map((u) => u.port)).toEqual(["1", "2"]);
    expect(config.services.identity_url).toBe("http://127.0.0.1:8101");
    expect(() => loadGatewayConfig({ ...base, BB_SERVICES_INBOX_URL: "http://127.0.0.1:1,nope" })).toThrow(/services\.inbox_url/);
  });
});

/** A port nothing listens on (bound, read and closed again). */
async function closedPort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", () => r()));
  const { port } = srv.address() as AddressInfo;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

const listenOn = (server: Server) =>
  new Promise<string>((r) => server.listen(0, "127.0.0.1", () => r(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));

describe("Forwarder over replicas (local servers)", () => {
  const servers: Server[] = [];
  let forwarder: Forwarder;
  afterEach(async () => {
    forwarder?.close();
    await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
  });

  /** An upstream that answers with its name and the body it read, counting requests. */
  async function upstream(name: string, seen: string[]): Promise<string> {
    const server = http.createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        seen.push(`${name} ${req.method} ${body}`);
        res.end(`${name}:${body}`);
      });
    });
    servers.push(server);
    return listenOn(server);
  }

  async function gateway(urls: string): Promise<string> {
    forwarder = new Forwarder(logger, 5_000);
    const pool = new UpstreamPool(parseUpstreamList(urls));
    const app = express();
    app.use((req, res) => void forwarder.forward(req, res, pool, {}));
    const server = http.createServer(app);
    servers.push(server);
    return listenOn(server);
  }

  it("spreads requests over the replicas in turn", async () => {
    const seen: string[] = [];
    const gw = await gateway(`${await upstream("a", seen)},${await upstream("b", seen)}`);
    const answers: string[] = [];
    for (let i = 0; i < 4; i++) answers.push(await (await fetch(`${gw}/x`, { method: "POST", body: `n${i}` })).text());
    expect(answers).toEqual(["a:n0", "b:n1", "a:n2", "b:n3"]);
    expect(seen).toHaveLength(4);
  });

  it("skips a replica that refuses the connection, sending the body once to the next", async () => {
    const seen: string[] = [];
    const gw = await gateway(`http://127.0.0.1:${await closedPort()},${await upstream("b", seen)}`);
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${gw}/x`, { method: "POST", body: `once-${i}` });
      expect(res.status).toBe(200);
      expect(await res.text()).toBe(`b:once-${i}`);
    }
    expect(seen).toEqual(["b POST once-0", "b POST once-1", "b POST once-2"]);
  });

  it("answers 503 when every replica refuses, and never retries after the request reached one", async () => {
    const down = await gateway(`http://127.0.0.1:${await closedPort()},http://127.0.0.1:${await closedPort()}`);
    const res = await fetch(`${down}/x`, { method: "POST", body: "x" });
    expect(res.status).toBe(503);

    // a replica that takes the request and drops the connection: the next one never sees it
    const seen: string[] = [];
    const dropping = http.createServer((req) => req.on("data", () => req.socket.destroy()));
    servers.push(dropping);
    forwarder.close();
    const gw = await gateway(`${await listenOn(dropping)},${await upstream("b", seen)}`);
    expect((await fetch(`${gw}/x`, { method: "POST", body: "pay once" })).status).toBe(503);
    expect(seen).toEqual([]);
  });

  it("sends a request without a body as one, and streams a body of either framing (length or chunked) whole", async () => {
    const seen: string[] = [];
    const gw = await gateway(await upstream("a", seen));
    const raw = (lines: string[], body = "") =>
      new Promise<string>((resolve, reject) => {
        const s = net.connect(Number(new URL(gw).port), "127.0.0.1", () => s.write(`${lines.join("\r\n")}\r\n\r\n${body}`));
        let answer = "";
        s.on("data", (d: Buffer) => (answer += d.toString()));
        s.on("end", () => resolve(answer.split("\r\n\r\n")[1] ?? ""));
        s.on("error", reject);
      });
    expect(await (await fetch(`${gw}/x`)).text()).toBe("a:");
    expect(await (await fetch(`${gw}/x`, { method: "DELETE" })).text()).toBe("a:");
    expect(await (await fetch(`${gw}/x`, { method: "PATCH", body: "sized" })).text()).toBe("a:sized");
    const chunked = ["POST /x HTTP/1.1", "Host: gw", "Connection: close", "Transfer-Encoding: chunked"];
    expect(await raw(chunked, "3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n")).toBe("a:abcde");
    expect(await raw(["POST /x HTTP/1.1", "Host: gw", "Connection: close", "Content-Length: 0"])).toBe("a:");
    expect(seen).toEqual(["a GET ", "a DELETE ", "a PATCH sized", "a POST abcde", "a POST "]);
  });

  it("gives the client the service's status, headers and body", async () => {
    const server = http.createServer((req, res) => {
      req.resume();
      res.writeHead(418, { "content-type": "application/json", "x-from": "service", "x-request-id": "theirs" });
      res.end(JSON.stringify({ error: "teapot" }));
    });
    servers.push(server);
    const gw = await gateway(await listenOn(server));
    const res = await fetch(`${gw}/x`);
    expect(res.status).toBe(418);
    expect(res.headers.get("x-from")).toBe("service");
    expect(res.headers.get("x-request-id")).toBeNull(); // the gateway's own id is the one the client sees
    expect(await res.json()).toEqual({ error: "teapot" });
  });

  it("forwards every held long poll at once, beyond the 256 connections of ordinary requests, and ordinary requests still pass meanwhile", async () => {
    // the replica holds each /wait until released, and answers anything else at once
    const held: ServerResponse[] = [];
    const server = http.createServer((req, res) => {
      req.resume();
      if (req.url === "/wait") held.push(res);
      else res.end("ordinary");
    });
    servers.push(server);
    forwarder = new Forwarder(logger, 5_000);
    const pool = new UpstreamPool(parseUpstreamList(await listenOn(server)));
    const gwServer = http.createServer((req, res) => void forwarder.forward(req, res, pool, {}, req.url === "/wait" ? 120_000 : 0));
    servers.push(gwServer);
    const gw = await listenOn(gwServer);

    const waits = Array.from({ length: 300 }, () => fetch(`${gw}/wait`).then(async (r) => `${r.status} ${await r.text()}`));
    await waitFor(() => held.length === 300, { what: "all 300 long polls to reach the replica" });
    const ordinary = await fetch(`${gw}/other`);
    expect(await ordinary.text()).toBe("ordinary");
    for (const res of held) res.end("answered");
    expect(new Set(await Promise.all(waits))).toEqual(new Set(["200 answered"]));
  });

  it("passes a WebSocket upgrade to the next replica when one refuses", async () => {
    const upgraded: string[] = [];
    const rt = http.createServer();
    rt.on("upgrade", (req, socket) => {
      upgraded.push(req.url ?? "");
      socket.end("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n");
    });
    servers.push(rt);
    const pool = new UpstreamPool(parseUpstreamList(`http://127.0.0.1:${await closedPort()},${await listenOn(rt)}`));
    const gw = http.createServer();
    gw.on("upgrade", (req, socket, head) => proxyUpgrade(req, req.url ?? "", socket as net.Socket, head, pool, logger));
    servers.push(gw);
    const port = Number(new URL(await listenOn(gw)).port);
    const status = await new Promise<string>((resolve, reject) => {
      const s = net.connect(port, "127.0.0.1", () =>
        s.write("GET /api/v1/ws/x HTTP/1.1\r\nHost: gw\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n"),
      );
      s.once("data", (d: Buffer) => {
        resolve(d.toString().split("\r\n")[0] ?? "");
        s.destroy();
      });
      s.once("error", reject);
    });
    expect(status).toBe("HTTP/1.1 101 Switching Protocols");
    expect(upgraded).toEqual(["/api/v1/ws/x"]);
  });
});
