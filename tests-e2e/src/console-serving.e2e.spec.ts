import { request as httpRequest } from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { attachConsole } from "./console/browser";
import { userBrowser } from "./console/world";
import { SharedSystem } from "./shared-system";

/** How the gateway serves the console (spec extensions 4): deep links, caching, CSP, compression. */
describe("the console: served by the gateway", () => {
  const system = SharedSystem.attach();
  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${system.gatewayUrl}${path}`, { headers });

  /** The page's own scripts and styles, as index.html names them. */
  async function assetsOf(html: string): Promise<string[]> {
    return [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
  }

  it("when any console path is opened, then index.html answers, revalidated every time, under a CSP without inline scripts", async () => {
    for (const path of ["/", "/login", "/invites/0123abcd", "/account?sessions_page=2", "/a/deep/link/that/no/page/has"]) {
      const res = await get(path);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^text\/html/);
      expect(res.headers.get("cache-control")).toBe("no-cache");
      const csp = res.headers.get("content-security-policy") ?? "";
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(csp).toContain("frame-ancestors 'none'");
      const html = await res.text();
      expect(html).toContain('<div id="root"></div>');
      // no inline script: every <script> names its source
      expect([...html.matchAll(/<script\b[^>]*>/g)].every((m) => / src="/.test(m[0]))).toBe(true);
    }
  });

  it("when the page's hashed assets are fetched, then they are immutable and come compressed (brotli, else gzip) when the client accepts it", async () => {
    const assets = await assetsOf(await (await get("/")).text());
    const script = assets.find((a) => a.endsWith(".js"))!;
    expect(script).toMatch(/^\/assets\/.+-[A-Za-z0-9_-]{8,}\.js$/);
    const plain = await fetch(`${system.gatewayUrl}${script}`, { headers: { "accept-encoding": "identity" } });
    expect(plain.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(plain.headers.get("content-encoding")).toBeNull();
    const original = Buffer.from(await plain.arrayBuffer());

    // fetch decodes by itself (and makes a conditional request uncacheable): node:http sends exactly these headers
    const raw = (encoding: string, extra: Record<string, string> = {}) =>
      new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
        httpRequest(`${system.gatewayUrl}${script}`, { headers: { "accept-encoding": encoding, ...extra } }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        })
          .on("error", reject)
          .end();
      });
    const br = await raw("gzip, deflate, br");
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(br.body).equals(original)).toBe(true);
    const gz = await raw("gzip");
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gz.body).equals(original)).toBe(true);
    expect(br.body.length).toBeLessThan(original.length / 2);

    // a conditional request for the same bytes: 304
    expect((await raw("identity", { "if-none-match": plain.headers.get("etag")! })).status).toBe(304);
    expect((await raw("br", { "if-none-match": String(br.headers.etag) })).status).toBe(304);
  });

  it("when a path is the API's, the health checks' or a missing asset, then the console stays out of it", async () => {
    const api = await get("/api/v1/no-such-route");
    expect(api.status).toBe(404);
    expect(await api.json()).toEqual({ error: "route not found", code: "not_found" });
    expect((await get("/api/v2/anything")).headers.get("content-type")).toMatch(/json/);
    expect(await (await get("/healthz")).json()).toMatchObject({ status: "ok" });
    const missing = await get("/assets/gone-1234abcd.js");
    expect(missing.status).toBe(404);
    expect(missing.headers.get("content-type")).toMatch(/json/);
    // the docs page keeps its own policy
    expect((await get("/api/v1/docs")).headers.get("content-type")).toMatch(/^text\/html/);
  });

  describe("in Chromium", () => {
    const ui = attachConsole(system);

    it("when a deep link is opened, then the page loads under the CSP without a violation and an unknown page says so", async () => {
      const { context, page } = await userBrowser(ui.browser, system);
      try {
        const violations: string[] = [];
        page.on("console", (m) => {
          if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
        });
        await page.goto("/forgot-password");
        await page.getByRole("heading", { name: "Reset your password" }).waitFor();
        await page.goto("/no/such/page");
        await page.getByRole("heading", { name: "Page not found" }).waitFor();
        expect(violations).toEqual([]);
      } finally {
        await context.close();
      }
    });
  });
});
