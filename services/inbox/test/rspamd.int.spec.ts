import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { createLogger } from "@burnbox/service-kit/runtime";
import { rspamdScorer } from "../src/adapters/rspamd";

/** deploy/local/rspamd.cjs: Debian's rspamd with the project's configuration, as `npm start` and the e2e tests run it. */
interface LocalRspamd {
  rspamdInstalled(): boolean;
  startRspamd(o: { port: number; dir: string; cacheDir?: string; timeoutMs?: number }): Promise<{ url: string }>;
  stopRspamd(dir: string): Promise<void>;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS file shared with deploy/local's .mjs scripts
const local = require(path.resolve(__dirname, "..", "..", "..", "deploy", "local", "rspamd.cjs")) as LocalRspamd;
/**
 * rspamd's compiled rules, in the folder the e2e runs of this machine keep them (tests-e2e/src/rspamd.ts's
 * default), so that only a first start compiles them.
 */
const CACHE = path.join(tmpdir(), "burnbox-rspamd-cache");

const GTUBE = "XJS*C4JDBQADN1.NSBN3*2IDNEN*GTUBE-STANDARD-ANTI-UBE-TEST-EMAIL*C.34X";
const message = (text: string) =>
  Buffer.from(
    [
      "From: sender@shop.example",
      "To: someone@inbox.example",
      "Subject: your order",
      "Message-ID: <order-1@shop.example>",
      "Date: Fri, 04 Dec 2026 18:00:00 +0000",
      "MIME-Version: 1.0",
      "Content-Type: text/plain; charset=utf-8",
      "",
      text,
      "",
    ].join("\r\n"),
  );
const origin = { ip: "127.0.0.1", helo: "mx.shop.example", sender: "sender@shop.example", recipients: ["someone@inbox.example"] };
const logger = createLogger({ service: "inbox-smtp", level: "silent" });

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

/** The scorer (extensions section 9) against a real rspamd: its answers as the adapter reads them, and its going away. */
(local.rspamdInstalled() ? describe : describe.skip)("rspamd scorer against Debian's rspamd", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "inbox-rspamd-"));
  let port = 0;
  let scorer: ReturnType<typeof rspamdScorer>;
  beforeAll(async () => {
    port = await freePort();
    const { url } = await local.startRspamd({ port, dir, cacheDir: CACHE, timeoutMs: 240_000 });
    scorer = rspamdScorer({ url, timeoutMs: 5_000 }, logger);
  }, 250_000);
  afterAll(async () => {
    await local.stopRspamd(dir);
    rmSync(dir, { recursive: true, force: true });
  });

  it("when an ordinary message is scored, then it is rspamd's verdict with its symbols and their descriptions", async () => {
    const r = await scorer.score(message("Thanks for your order, it ships tomorrow."), origin);
    expect(r).toMatchObject({ status: "scored", action: "no action", required_score: 15 });
    if (r.status !== "scored") throw new Error("not scored");
    expect(r.score).toBeLessThan(r.required_score);
    expect(r.symbols.length).toBeGreaterThan(0);
    expect(r.symbols.map((s) => s.name)).toContain("MIME_GOOD");
    expect(r.symbols.find((s) => s.name === "MIME_GOOD")).toEqual({
      name: "MIME_GOOD",
      score: expect.any(Number),
      description: "Known content-type",
    });
  });

  it("when the message carries GTUBE, then rspamd's action is reject", async () => {
    await expect(scorer.score(message(GTUBE), origin)).resolves.toMatchObject({ status: "scored", action: "reject" });
  });

  it("when many messages are scored at once, then every one is scored (a connection each)", async () => {
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => scorer.score(message(`message ${i}`), origin)));
    expect(results.map((r) => r.status)).toEqual(Array(50).fill("scored"));
  });

  it("when rspamd is stopped, then the score is unavailable, and scored again once it is back", async () => {
    await local.stopRspamd(dir);
    await expect(scorer.score(message("while it is away"), origin)).resolves.toEqual({ status: "unavailable" });
    await local.startRspamd({ port, dir, cacheDir: CACHE, timeoutMs: 240_000 });
    await expect(scorer.score(message("back again"), origin)).resolves.toMatchObject({ status: "scored" });
  }, 250_000);
});
