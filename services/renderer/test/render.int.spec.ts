import http from "node:http";
import type { AddressInfo } from "node:net";
import { startTestService, type TestService } from "@burnbox/test-kit";
import { rendererClient, RendererUnavailable, type MailRenderer } from "../../inbox/src/adapters/renderer";
import { startService, type RunningService } from "../src/app";
import { loadRendererConfig, type RendererConfig } from "../src/config";
import { pngSize } from "../src/domain/page";

/** A local server that records every request it gets (a hostile mail must never reach it). */
async function recordingServer(): Promise<{ url: string; hits: string[]; close(): Promise<void> }> {
  const hits: string[] = [];
  const pixel = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==", "base64");
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? "");
    if (req.url?.startsWith("/img")) {
      res.writeHead(200, { "content-type": "image/png" });
      res.end(pixel);
    } else {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<p>fetched</p>");
    }
  });
  server.on("connection", () => hits.push("(tcp)"));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, hits, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe("the renderer on real NATS and Chromium", () => {
  let t: TestService<RendererConfig, RunningService>;
  let renderer: MailRenderer;
  let remote: Awaited<ReturnType<typeof recordingServer>>;

  beforeAll(async () => {
    remote = await recordingServer();
    t = await startTestService({
      prefix: "rnd",
      load: (o) => loadRendererConfig({}, o),
      start: startService,
      // the local server is reachable for `images: allowed` only because the test exempts it
      overrides: () => ({ images: { unsafe_allowed_targets: ["127.0.0.1"] }, render: { chunk_bytes: 64 * 1024, timeout: "30s" } }),
    });
    renderer = rendererClient(t.infra.nc, t.ns, { timeoutMs: 20_000 });
  });
  afterAll(async () => {
    await t?.stop();
    await remote?.close();
  });

  const blank = "<!doctype html><html><body></body></html>";

  it.each([1280, 600, 375] as const)("renders HTML as a PNG %i px wide", async (width) => {
    const png = await renderer.renderEmail({
      html: "<h1>Welcome</h1><p>Your code is 123456</p>",
      width,
      scheme: "light",
      images: "blocked",
    });
    expect(pngSize(png)?.width).toBe(width);
  });

  it("sets a text-only mail in a plain page, dark differing from light", async () => {
    const light = await renderer.renderEmail({ text: "Hello\nYour code: 424242", width: 600, scheme: "light", images: "blocked" });
    const dark = await renderer.renderEmail({ text: "Hello\nYour code: 424242", width: 600, scheme: "dark", images: "blocked" });
    expect(pngSize(light)?.width).toBe(600);
    expect(dark.equals(light)).toBe(false);
  });

  it("renders the same mail to the same bytes (deterministic)", async () => {
    const html = "<style>@keyframes s{to{opacity:0}} p{animation:s 1s infinite;font-family:Arial}</style><p>Same every time</p>";
    const a = await renderer.renderEmail({ html, width: 375, scheme: "light", images: "blocked" });
    const b = await renderer.renderEmail({ html, width: 375, scheme: "light", images: "blocked" });
    expect(a.equals(b)).toBe(true);
  });

  it("cuts a page taller than 10,000 px at 10,000, the picture arriving in several chunks", async () => {
    // the test's renderer sends 64 KiB chunks (render.chunk_bytes), so this picture takes several
    const html = '<div style="height:20000px;background:linear-gradient(#fff,#036)">tall</div>';
    const png = await renderer.renderEmail({ html, width: 1280, scheme: "light", images: "blocked" });
    expect(pngSize(png)).toEqual({ width: 1280, height: 10_000 });
    expect(png.length).toBeGreaterThan(64 * 1024);
  });

  describe("a hostile mail", () => {
    beforeEach(() => remote.hits.splice(0));

    it("cannot fetch a remote image, style sheet, font, frame, preconnect or background while images are blocked", async () => {
      const u = remote.url;
      const html = `<!doctype html><html><head>
        <link rel="stylesheet" href="${u}/css"><link rel="preconnect" href="${u}"><link rel="dns-prefetch" href="${u}">
        <link rel="prefetch" href="${u}/prefetch"><link rel="icon" href="${u}/icon">
        <style>@import url("${u}/import"); @font-face{font-family:X;src:url("${u}/font.woff2")} body{font-family:X;background:url("${u}/bg")}</style>
        </head><body><img src="${u}/img-blocked"><iframe src="${u}/frame"></iframe><video src="${u}/video"></video>
        <object data="${u}/object"></object><embed src="${u}/embed"><a href="${u}/link" ping="${u}/ping">x</a>
        <form action="${u}/form"><input type="image" src="${u}/input"></form></body></html>`;
      const png = await renderer.renderEmail({ html, width: 600, scheme: "light", images: "blocked" });
      expect(pngSize(png)?.width).toBe(600);
      expect(remote.hits).toEqual([]);
    });

    it("fetches only images when they are allowed, never its style sheets or frames", async () => {
      const u = remote.url;
      const html = `<link rel="stylesheet" href="${u}/css"><iframe src="${u}/frame"></iframe><img src="${u}/img-allowed">`;
      await renderer.renderEmail({ html, width: 600, scheme: "light", images: "allowed" });
      expect(remote.hits.filter((h) => h !== "(tcp)")).toEqual(["/img-allowed"]);
    });

    it("cannot run script: inline, an event handler, a javascript: URL or a meta refresh", async () => {
      const u = remote.url;
      const html = `<!doctype html><html><head><meta http-equiv="refresh" content="0;url=${u}/refresh"></head><body>
        <script>document.body.innerHTML='<img src="${u}/script">';document.body.style.background='red'</script>
        <img src="x:" onerror="this.src='${u}/onerror'"><body onload="location='${u}/onload'">
        <iframe src="javascript:parent.location='${u}/jsurl'"></iframe><a href="javascript:alert(1)">a</a>
        <svg onload="fetch('${u}/svg')"></svg></body></html>`;
      await renderer.renderEmail({ html, width: 600, scheme: "light", images: "allowed" });
      expect(remote.hits).toEqual([]);
      // a script that ran would have painted the page red: the picture is the same as with no script
      const a = await renderer.renderEmail({
        html: html.replace(/<script>.*<\/script>/s, ""),
        width: 600,
        scheme: "light",
        images: "blocked",
      });
      const b = await renderer.renderEmail({ html, width: 600, scheme: "light", images: "blocked" });
      expect(b.equals(a)).toBe(true);
    });

    it.each([
      ["an image", '<img src="file:///etc/passwd" width="600" height="400">'],
      ["a frame", '<iframe src="file:///etc/passwd" width="600" height="400" style="border:0"></iframe>'],
      ["a style sheet", '<link rel="stylesheet" href="file:///etc/passwd">'],
      ["an object", '<object data="file:///etc/passwd" width="600" height="400"></object>'],
    ])("cannot read a file through %s: its render equals the render without it", async (_what, tag) => {
      const withFile = await renderer.renderEmail({
        html: `<!doctype html><html><body>${tag}</body></html>`,
        width: 600,
        scheme: "light",
        images: "allowed",
      });
      const empty = tag.replace(/file:\/\/\/etc\/passwd/, "about:blank");
      const withBlank = await renderer.renderEmail({
        html: `<!doctype html><html><body>${empty}</body></html>`,
        width: 600,
        scheme: "light",
        images: "allowed",
      });
      expect(withFile.equals(withBlank)).toBe(true);
      const plain = await renderer.renderEmail({ html: blank, width: 600, scheme: "light", images: "allowed" });
      expect(pngSize(plain)?.width).toBe(600);
    });
  });

  it("refuses a page with more DOM nodes than its limit", async () => {
    const many = "<b></b>".repeat(60_000);
    await expect(renderer.renderEmail({ html: many, width: 375, scheme: "light", images: "blocked" })).rejects.toMatchObject({
      code: "too_large",
    });
  });

  it("answers RendererUnavailable when no renderer serves the namespace", async () => {
    const nobody = rendererClient(t.infra.nc, `${t.ns}-none`, { timeoutMs: 300 });
    await expect(nobody.renderEmail({ text: "x", width: 375, scheme: "light", images: "blocked" })).rejects.toBeInstanceOf(
      RendererUnavailable,
    );
  });
});
