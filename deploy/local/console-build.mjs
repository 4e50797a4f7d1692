// The web console's build (packages/console, `vite build`), shared by `pnpm build` (build.mjs, which
// copies it beside the gateway's bundle) and `npm start` (start.mjs, whose gateway serves
// packages/console/dist as it is). Skipped when the output is newer than everything it is built from.
import { spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { ROOT } from "./lib.mjs";

export const CONSOLE_DIR = path.join(ROOT, "packages", "console");
/** Where `vite build` writes the console. */
export const CONSOLE_DIST = path.join(CONSOLE_DIR, "dist");

/** What the console's build reads: when none of it is newer than the last output, the output stands. */
const CONSOLE_SOURCES = [
  path.join(CONSOLE_DIR, "src"),
  path.join(CONSOLE_DIR, "public"),
  path.join(CONSOLE_DIR, "index.html"),
  path.join(CONSOLE_DIR, "vite.config.ts"),
  path.join(CONSOLE_DIR, "package.json"),
  path.join(ROOT, "packages", "sdk", "src"),
];

function newestMtime(file) {
  if (!existsSync(file)) return 0;
  const st = statSync(file);
  if (!st.isDirectory()) return st.mtimeMs;
  return readdirSync(file).reduce((m, name) => Math.max(m, newestMtime(path.join(file, name))), st.mtimeMs);
}

/** Whether packages/console/dist is missing or older than one of its sources. */
export function consoleIsStale() {
  const built = path.join(CONSOLE_DIST, "index.html");
  return !existsSync(built) || statSync(built).mtimeMs < Math.max(...CONSOLE_SOURCES.map(newestMtime));
}

/** `vite build` of packages/console unless its dist/ is up to date; resolves to whether it ran. */
export async function buildConsole() {
  if (!consoleIsStale()) return false;
  const vite = path.join(CONSOLE_DIR, "node_modules", "vite", "bin", "vite.js");
  if (!existsSync(vite)) throw new Error("console: vite is not installed (pnpm install)");
  const code = await new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [vite, "build", "--logLevel", "warn"], {
      cwd: CONSOLE_DIR,
      stdio: ["ignore", "inherit", "inherit"],
    });
    child.on("error", reject);
    child.on("exit", resolve);
  });
  if (code !== 0) throw new Error("console: vite build failed (errors above)");
  return true;
}
