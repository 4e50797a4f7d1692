import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import express from "express";
import request from "supertest";
import { ConsoleFiles } from "../adapters/console-files";
import { consoleHandler } from "./console";

describe("the console's files at /", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "bb-console-"));
  const page =
    '<!doctype html><html><head><script type="module" src="/assets/index-1a2b3c4d.js"></script></head><body><div id="root"></div></body></html>';
  const script = `console.log(${JSON.stringify("x".repeat(4000))});`;
  mkdirSync(path.join(dir, "assets"));
  writeFileSync(path.join(dir, "index.html"), page);
  writeFileSync(path.join(dir, "assets", "index-1a2b3c4d.js"), script);
  writeFileSync(path.join(dir, "assets", "index-1a2b3c4d.js.gz"), gzipSync(script));
  writeFileSync(path.join(dir, "favicon.svg"), "<svg/>");
  const app = express();
  app.use(consoleHandler(ConsoleFiles.load(dir)!, ["/healthz", "/readyz", "/metrics"]));
  app.use((_req, res) => res.status(404).json({ error: "route not found", code: "not_found" }));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("when a deep link is asked for, then index.html answers, not cached, under the console's CSP", async () => {
    for (const p of ["/", "/login", "/invites/0a1b", "/reset-password?token=x"]) {
      const res = await request(app).get(p);
      expect(res.status).toBe(200);
      expect(res.text).toBe(page);
      expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
      expect(res.headers["cache-control"]).toBe("no-cache");
      expect(res.headers["content-security-policy"]).toContain("script-src 'self'");
    }
  });

  it("when a hashed asset is asked for, then it is immutable, gzip when accepted, and 304 when unchanged", async () => {
    const plain = await request(app).get("/assets/index-1a2b3c4d.js").set("accept-encoding", "identity");
    expect(plain.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.text).toBe(script);
    const zipped = await request(app).get("/assets/index-1a2b3c4d.js").set("accept-encoding", "gzip, br");
    expect(zipped.headers["content-encoding"]).toBe("gzip");
    expect(zipped.headers.vary).toBe("Accept-Encoding");
    expect(zipped.text).toBe(script); // supertest decodes
    const again = await request(app)
      .get("/assets/index-1a2b3c4d.js")
      .set("accept-encoding", "identity")
      .set("if-none-match", plain.headers.etag!);
    expect(again.status).toBe(304);
    expect((await request(app).get("/favicon.svg")).headers["cache-control"]).toBe("no-cache");
  });

  it("when the path is the API's, a health path, a missing asset, a traversal or not a GET, then the console passes it on", async () => {
    for (const p of ["/api/v1/x", "/healthz", "/metrics", "/assets/missing-00000000.js", "/assets/%2e%2e/%2e%2e/etc/passwd"]) {
      const res = await request(app).get(p);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: "route not found", code: "not_found" });
    }
    expect((await request(app).post("/login")).status).toBe(404);
    const head = await request(app).head("/account");
    expect(head.status).toBe(200);
    expect(head.headers["content-length"]).toBe(String(Buffer.byteLength(page)));
  });
});
