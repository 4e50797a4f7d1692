// A private rspamd for `npm start` and the end-to-end tests (extensions section 9): Debian's
// package with its own configuration and deploy/local/rspamd/ as LOCAL_CONFDIR (one scanner
// worker on the given port, no network; see the README there), its database, run and log
// directories in `dir`. The compiled regular expressions stay in `dir` between runs, so only the
// first start is slow (tens of seconds); later ones take a few.
import { spawn } from "node:child_process";
import { chownSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "./lib.mjs";

export const RSPAMD_BINARY = process.env.BB_RSPAMD_BINARY ?? "/usr/bin/rspamd";
const CONFDIR = path.join(ROOT, "deploy", "local", "rspamd");

/** Whether rspamd is installed (without it, scoring stays off: emails are stored `disabled`). */
export const rspamdInstalled = () => existsSync(RSPAMD_BINARY);

const pidFile = (dir) => path.join(dir, "rspamd.pid");

/** Resolves once `url`'s /ping answers, or rejects after `timeoutMs`. */
async function untilPong(url, timeoutMs, child) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) throw new Error(`rspamd exited with ${child.exitCode}`);
    const ok = await fetch(`${url}/ping`, { signal: AbortSignal.timeout(1000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`rspamd did not answer on ${url} within ${timeoutMs} ms`);
}

/**
 * Starts rspamd's scanner on 127.0.0.1:`port` and resolves with its URL once it answers. Runs as
 * `_rspamd` when started by root (rspamd refuses to run as root). `stop` ends it (by the pid it
 * wrote in `dir`, so another process can stop it too: `stopRspamd(dir)`).
 */
export async function startRspamd({ port, dir, timeoutMs = 180_000, log = "ignore" }) {
  mkdirSync(dir, { recursive: true });
  const root = typeof process.getuid === "function" && process.getuid() === 0;
  const args = ["-f", "-c", "/etc/rspamd/rspamd.conf", "-p", pidFile(dir)];
  for (const [k, v] of Object.entries({ LOCAL_CONFDIR: CONFDIR, DBDIR: dir, RUNDIR: dir, LOGDIR: dir, SCANNER_PORT: String(port) })) {
    args.push(`--var=${k}=${v}`);
  }
  if (root) {
    args.push("-u", "_rspamd", "-g", "_rspamd");
    const { uid, gid } = userIds("_rspamd");
    if (uid !== null) chownSync(dir, uid, gid);
  }
  const child = spawn(RSPAMD_BINARY, args, { stdio: ["ignore", log, log], detached: true });
  child.unref();
  const url = `http://127.0.0.1:${port}`;
  await untilPong(url, timeoutMs, child);
  return { url, pid: child.pid, stop: () => stopRspamd(dir) };
}

/** Ends the rspamd whose pid file is in `dir` (SIGTERM; its workers follow their main process); resolves once it is gone. */
export async function stopRspamd(dir, signal = "SIGTERM") {
  if (!existsSync(pidFile(dir))) return;
  const pid = Number(readFileSync(pidFile(dir), "utf8").trim());
  if (!pid) return;
  try {
    process.kill(pid, signal);
  } catch {
    return;
  }
  for (let i = 0; i < 100; i++) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

function userIds(name) {
  const line = readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((l) => l.startsWith(`${name}:`));
  if (!line) return { uid: null, gid: null };
  const [, , uid, gid] = line.split(":");
  return { uid: Number(uid), gid: Number(gid) };
}
