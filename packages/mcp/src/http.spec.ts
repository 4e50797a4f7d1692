import { request } from "node:http";
import { BurnBox } from "@burnbox/sdk";
import { serveHttp, type HttpHandle } from "./http.js";

// tools/list answers without calling BurnBox: the client below points nowhere
const bb = new BurnBox({ baseUrl: "http://127.0.0.1:9", apiKey: "bb_key" });
const TOKEN = "s3cret-token-0123456789";
const listTools = { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} };

const post = (url: string, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify(listTools),
  });

describe("the HTTP transport's door", () => {
  let handle: HttpHandle | undefined;
  afterEach(async () => {
    await handle?.close();
    handle = undefined;
  });

  it("when a token is set, then a request without it, with another or not as Bearer gets 401 with WWW-Authenticate: Bearer; with it, the tools", async () => {
    handle = await serveHttp(bb, 0, "127.0.0.1", TOKEN);
    const attempts: Array<Record<string, string>> = [
      {},
      { authorization: `Bearer ${TOKEN}x` },
      { authorization: `Bearer ${TOKEN.slice(1)}` },
      { authorization: TOKEN },
    ];
    for (const headers of attempts) {
      const res = await post(handle.url, headers);
      expect({ headers, status: res.status, challenge: res.headers.get("www-authenticate") }).toEqual({
        headers,
        status: 401,
        challenge: 'Bearer realm="burnbox-mcp"',
      });
    }
    // other paths and methods are behind the same door
    expect((await fetch(handle.url.replace(/\/mcp$/, "/other"))).status).toBe(401);
    const ok = await post(handle.url, { authorization: `Bearer ${TOKEN}` });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { result: { tools: unknown[] } }).result.tools.length).toBeGreaterThan(0);
  });

  it("when bound beyond loopback without a token, then it refuses to listen", async () => {
    await expect(serveHttp(bb, 0, "0.0.0.0")).rejects.toThrow("without a token");
  });

  it("when on loopback without a token, then a web page of another origin is refused (403), a loopback page and a non-browser client are served", async () => {
    handle = await serveHttp(bb, 0, "127.0.0.1");
    for (const origin of ["http://evil.example", "null", "https://127.0.0.1.evil.example"]) {
      expect({ origin, status: (await post(handle.url, { origin })).status }).toEqual({ origin, status: 403 });
    }
    expect((await post(handle.url, { origin: "http://localhost:5173" })).status).toBe(200);
    expect((await post(handle.url)).status).toBe(200);
  });

  it("when bound to another loopback address, then it is served under that name and still refuses a foreign Host", async () => {
    handle = await serveHttp(bb, 0, "127.0.0.2");
    expect((await post(handle.url)).status).toBe(200);
    const url = new URL(handle.url);
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: url.hostname,
          port: Number(url.port),
          path: "/mcp",
          method: "POST",
          headers: { host: "evil.example", "content-type": "application/json" },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      req.end("{}");
    });
    expect(status).toBe(403);
  });
});
