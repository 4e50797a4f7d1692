// Streamable HTTP at /mcp, stateless: every POST gets its own server and transport, so nothing
// is kept between requests, any number of clients (or replicas behind a balancer) work, and a
// request that ends frees everything it held. The tools never call back into the client, so
// sessions would buy nothing. GET (a server-to-client stream) and DELETE (ending a session)
// answer 405, as the transport specification asks of a server without sessions.
//
// Who may call: with a token, only a request that sends `Authorization: Bearer <token>` (401
// otherwise); beyond loopback there is always one (config.ts refuses to start without it). On a
// loopback address a request whose Host is not a loopback name, or whose Origin is a web page of
// another host, is refused (403): a page in the user's browser cannot reach the server through
// DNS rebinding or a cross-site POST. (The SDK's transport has `allowedHosts`/`allowedOrigins`
// options, but deprecated in favour of the caller's own checks, which these are.)
import { createHash, timingSafeEqual } from "node:crypto";
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { BurnBox } from "@burnbox/sdk";
import { isLoopbackHost } from "./config.js";
import { createServer } from "./server.js";

const MAX_BODY_BYTES = 1 << 20;

function rpcError(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }));
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new RangeError("request body too large");
    chunks.push(chunk as Buffer);
  }
  return JSON.parse(Buffer.concat(chunks).toString("utf8"));
}

/** True when a loopback-bound server is asked under a name other than a loopback one (DNS rebinding from a web page). */
function foreignHost(req: IncomingMessage, loopback: boolean): boolean {
  if (!loopback) return false;
  const host = req.headers.host ?? "";
  const name = host.startsWith("[") ? host.slice(0, host.indexOf("]") + 1) : host.replace(/:\d+$/, "");
  return name === "" || !isLoopbackHost(name);
}

/** True when a loopback-bound server gets a request a web page of another host sent (an Origin that is not a loopback page). */
function foreignOrigin(req: IncomingMessage, loopback: boolean): boolean {
  const origin = req.headers.origin;
  if (!loopback || origin === undefined) return false;
  try {
    const url = new URL(origin);
    return !(url.protocol === "http:" || url.protocol === "https:") || !isLoopbackHost(url.hostname);
  } catch {
    return true; // "null" (a sandboxed page, a file) or garbage
  }
}

/** Compares the request's bearer token with the configured one in constant time (both hashed first, so lengths leak nothing either). */
function bearerMatches(req: IncomingMessage, expected: Buffer): boolean {
  const match = /^Bearer +(\S+) *$/i.exec(req.headers.authorization ?? "");
  const given = createHash("sha256")
    .update(match?.[1] ?? "")
    .digest();
  return timingSafeEqual(given, expected) && match !== null;
}

export interface HttpHandle {
  server: Server;
  url: string;
  close(): Promise<void>;
}

/**
 * Serves MCP over streamable HTTP at http://host:port/mcp, every tool calling BurnBox through `bb`;
 * with `token`, only to requests that carry it as a bearer token.
 */
export async function serveHttp(bb: BurnBox, port: number, host: string, token?: string): Promise<HttpHandle> {
  const loopback = isLoopbackHost(host);
  if (!loopback && !token) throw new Error(`refusing to listen on ${host} without a token`);
  const expected = token ? createHash("sha256").update(token).digest() : undefined;
  const server = createHttpServer((req, res) => {
    if (foreignHost(req, loopback)) return rpcError(res, 403, "forbidden host");
    if (foreignOrigin(req, loopback)) return rpcError(res, 403, "forbidden origin");
    if (expected && !bearerMatches(req, expected)) {
      return rpcError(res, 401, "unauthorized: send Authorization: Bearer <BURNBOX_MCP_TOKEN>", {
        "www-authenticate": 'Bearer realm="burnbox-mcp"',
      });
    }
    const path = (req.url ?? "/").split("?")[0];
    if (path !== "/mcp") return rpcError(res, 404, "not found: the MCP endpoint is /mcp");
    if (req.method !== "POST") return rpcError(res, 405, "method not allowed: this server keeps no sessions", { allow: "POST" });
    void (async () => {
      let body: unknown;
      try {
        body = await readJson(req);
      } catch (err) {
        return rpcError(res, err instanceof RangeError ? 413 : 400, err instanceof RangeError ? err.message : "parse error: invalid JSON");
      }
      const mcp = createServer(bb);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on("close", () => {
        void transport.close();
        void mcp.close();
      });
      try {
        await mcp.connect(transport);
        await transport.handleRequest(req, res, body);
      } catch (err) {
        if (!res.headersSent) rpcError(res, 500, `internal error: ${err instanceof Error ? err.message : String(err)}`);
      }
    })();
  });
  // a wait holds its request up to 120 s: keep Node's own limits out of its way
  server.requestTimeout = 0;
  server.headersTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const { port: bound } = server.address() as AddressInfo;
  const shownHost = host.includes(":") ? `[${host}]` : host;
  return {
    server,
    url: `http://${shownHost}:${bound}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
