import { spawn } from "node:child_process";
import { chownSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";

/**
 * The e2e run's rspamd (extensions section 9), as deploy/local/rspamd.mjs runs it for `npm start`:
 * Debian's package with deploy/local/rspamd/ as its LOCAL_CONFDIR (one scanner worker, no
 * network), its state in a directory kept between runs (the compiled regular expressions: the
 * first start takes a minute or two on a busy machine, later ones seconds). Stopped and started
 * again by the test that takes it away mid-load, from its own process, by the pid file.
 */
const ROOT = path.resolve(__dirname, "..", "..");
export const RSPAMD_BINARY = process.env.BB_RSPAMD_BINARY ?? "/usr/bin/rspamd";
export const RSPAMD_DIR = path.join(ROOT, ".test-results", "rspamd");
const CONFDIR = path.join(ROOT, "deploy", "local", "rspamd");

export const rspamdInstalled = (): boolean => existsSync(RSPAMD_BINARY);
const pidFile = (dir: string) => path.join(dir, "rspamd.pid");

async function pong(url: string): Promise<boolean> {
  return fetch(`${url}/ping`, { signal: AbortSignal.timeout(1000) }).then(
    (r) => r.ok,
    () => false,
  );
}

/** Starts the scanner on 127.0.0.1:`port` and resolves with its URL once `/ping` answers. */
export async function startRspamd(port: number, dir = RSPAMD_DIR, timeoutMs = 240_000): Promise<string> {
  mkdirSync(dir, { recursive: true });
  const args = ["-f", "-c", "/etc/rspamd/rspamd.conf", "-p", pidFile(dir)];
  const vars = { LOCAL_CONFDIR: CONFDIR, DBDIR: dir, RUNDIR: dir, LOGDIR: dir, SCANNER_PORT: String(port) };
  for (const [k, v] of Object.entries(vars)) args.push(`--var=${k}=${v}`);
  if (process.getuid?.() === 0) {
    // rspamd will not run as root
    args.push("-u", "_rspamd", "-g", "_rspamd");
    const line = readFileSync("/etc/passwd", "utf8")
      .split("\n")
      .find((l) => l.startsWith("_rspamd:"));
    if (line) chownSync(dir, Number(line.split(":")[2]), Number(line.split(":")[3]));
  }
  const child = spawn(RSPAMD_BINARY, args, { stdio: "ignore", detached: true });
  child.unref();
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  while (!(await pong(url))) {
    if (child.exitCode !== null) throw new Error(`rspamd exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error(`rspamd did not answer on ${url} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return url;
}

/** Ends the rspamd whose pid file is in `dir`; resolves once its main process is gone. */
export async function stopRspamd(dir = RSPAMD_DIR, signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
  if (!existsSync(pidFile(dir))) return;
  const pid = Number(readFileSync(pidFile(dir), "utf8").trim());
  if (!pid) return;
  try {
    process.kill(pid, signal);
  } catch {
    return;
  }
  for (;;) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
