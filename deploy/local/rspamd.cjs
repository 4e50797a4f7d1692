// A private rspamd for `npm start` and the end-to-end tests (extensions section 9): Debian's
// package with its own configuration and deploy/local/rspamd/ as LOCAL_CONFDIR (one scanner
// worker on the given port, no network; see the README there), its run and log files in `dir`.
// Its database (the compiled regular expressions and statistics) is `cacheDir`, `dir` when not
// given: kept between runs, so only the first start is slow (a minute or two on a busy machine)
// and later ones take seconds. CommonJS so that both deploy/local/*.mjs and the TypeScript of
// tests-e2e (jest, CommonJS) load this one copy.
"use strict";
const { spawn } = require("node:child_process");
const { chownSync, existsSync, mkdirSync, readFileSync, writeFileSync } = require("node:fs");
const path = require("node:path");

const RSPAMD_BINARY = process.env.BB_RSPAMD_BINARY ?? "/usr/bin/rspamd";
const CONFDIR = path.join(__dirname, "rspamd");

/** Whether rspamd is installed (without it, scoring stays off: emails are stored `disabled`). */
const rspamdInstalled = () => existsSync(RSPAMD_BINARY);

const pidFile = (dir) => path.join(dir, "rspamd.pid");
const pause = (ms) => new Promise((r) => setTimeout(r, ms));

/** Whether `url`'s /ping answers now. */
const pong = (url) =>
  fetch(`${url}/ping`, { signal: AbortSignal.timeout(1000) }).then(
    (r) => r.ok,
    () => false,
  );

/** The pid in `dir`'s pid file when that process is alive, else null. */
function runningPid(dir) {
  if (!existsSync(pidFile(dir))) return null;
  const pid = Number(readFileSync(pidFile(dir), "utf8").trim());
  if (!pid) return null;
  try {
    process.kill(pid, 0);
    return pid;
  } catch {
    return null;
  }
}

/** Resolves once `url`'s /ping answers, or rejects after `timeoutMs` or when `child` exits. */
async function untilPong(url, timeoutMs, child) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`rspamd exited with ${child.exitCode}`);
    if (await pong(url)) return;
    await pause(250);
  }
  throw new Error(`rspamd did not answer on ${url} within ${timeoutMs} ms`);
}

/** The uid and gid of a system user, or nulls when there is none. */
function userIds(name) {
  const line = readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((l) => l.startsWith(`${name}:`));
  if (!line) return { uid: null, gid: null };
  const [, , uid, gid] = line.split(":");
  return { uid: Number(uid), gid: Number(gid) };
}

/**
 * Starts rspamd's scanner on 127.0.0.1:`port` and resolves with its URL once it answers. Runs as
 * `_rspamd` when started by root (rspamd refuses to run as root). `stop` ends it (by the pid it
 * wrote in `dir`, so another process can stop it too: `stopRspamd(dir)`).
 */
async function startRspamd({ port, dir, cacheDir = dir, timeoutMs = 180_000, log = "ignore" }) {
  const url = `http://127.0.0.1:${port}`;
  // already running from `dir` and answering: not a second one (it would take the pid file over
  // and leave the first behind when stopped)
  const running = runningPid(dir);
  if (running && (await pong(url))) return { url, pid: running, stop: () => stopRspamd(dir) };
  for (const d of new Set([dir, cacheDir])) mkdirSync(d, { recursive: true });
  const args = ["-f", "-c", "/etc/rspamd/rspamd.conf"];
  const vars = { LOCAL_CONFDIR: CONFDIR, DBDIR: cacheDir, RUNDIR: dir, LOGDIR: dir, SCANNER_PORT: String(port) };
  for (const [k, v] of Object.entries(vars)) args.push(`--var=${k}=${v}`);
  if (typeof process.getuid === "function" && process.getuid() === 0) {
    args.push("-u", "_rspamd", "-g", "_rspamd");
    const { uid, gid } = userIds("_rspamd");
    if (uid !== null) for (const d of new Set([dir, cacheDir])) chownSync(d, uid, gid);
  }
  const child = spawn(RSPAMD_BINARY, args, { stdio: ["ignore", log, log], detached: true });
  child.unref();
  // rspamd writes no pid file in the foreground: ours, so that another process can stop it
  writeFileSync(pidFile(dir), String(child.pid));
  await untilPong(url, timeoutMs, child);
  return { url, pid: child.pid, stop: () => stopRspamd(dir) };
}

/**
 * Ends the rspamd whose pid file is in `dir` (`signal`; its workers follow their main process);
 * resolves once it is gone, or after `waitMs`.
 */
async function stopRspamd(dir, signal = "SIGTERM", waitMs = 30_000) {
  if (!existsSync(pidFile(dir))) return;
  const pid = Number(readFileSync(pidFile(dir), "utf8").trim());
  if (!pid) return;
  try {
    process.kill(pid, signal);
  } catch {
    return;
  }
  for (const deadline = Date.now() + waitMs; Date.now() < deadline; await pause(100)) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
  }
}

module.exports = { RSPAMD_BINARY, rspamdInstalled, startRspamd, stopRspamd };
