import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

export const SDK_DIR = path.resolve(__dirname, "..", "..", "packages", "sdk");
export const CLI_DIR = path.resolve(__dirname, "..", "..", "packages", "cli");
export const MCP_DIR = path.resolve(__dirname, "..", "..", "packages", "mcp");
export const PLAYWRIGHT_DIR = path.resolve(__dirname, "..", "..", "packages", "playwright");
const TSC = path.resolve(__dirname, "..", "..", "node_modules", ".bin", "tsc");

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/** Compiles a client package to its dist/ unless dist is newer than every source (tsc -p tsconfig.build.json). */
function build(dir: string, entry: string): void {
  const out = path.join(dir, "dist", entry);
  if (existsSync(out) && statSync(out).mtimeMs > newestSource(path.join(dir, "src"))) return;
  const r = spawnSync(TSC, ["-p", "tsconfig.build.json"], { cwd: dir, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`building ${dir} failed:\n${r.stdout}${r.stderr}`);
}

/** The end-to-end tests use the SDK, the CLI, the MCP server and the Playwright fixtures as they ship: compiled to dist/. */
export function buildClientPackages(): void {
  build(SDK_DIR, "index.js");
  build(CLI_DIR, "cli.js");
  build(MCP_DIR, "main.js");
  build(PLAYWRIGHT_DIR, "index.js");
}
