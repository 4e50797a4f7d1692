// `npm start` on a machine with only Node.js: it must end with what is missing and how to get it,
// never a stack trace. Runs start.mjs with a PATH holding only `node` (so no pg_ctlcluster,
// redis-server, nats-server, docker) and dependency URLs where nothing listens; then again with
// a `docker` whose engine does not answer. Then `npm test` without Chromium, where it cannot
// install it: it must stop at once with what to install.
//
//   node deploy/local/first-run.test.mjs      prints `N passed, N failed`
import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");
let passed = 0;
let failed = 0;
function check(ok, what, output) {
  process.stdout.write(`[first-run] ${ok ? "ok  " : "FAIL"} ${what}\n`);
  if (ok) passed++;
  else {
    failed++;
    process.stdout.write(`${output}\n`);
  }
}

const bin = mkdtempSync(path.join(os.tmpdir(), "bb-first-run-"));
symlinkSync(process.execPath, path.join(bin, "node"));
const nowhere = {
  PATH: bin,
  HOME: bin,
  DATABASE_URL: "postgresql://postgres@127.0.0.1:9/x",
  REDIS_URL: "redis://127.0.0.1:9",
  NATS_URL: "nats://127.0.0.1:9",
};
const start = (env) =>
  spawnSync(path.join(bin, "node"), [path.join(ROOT, "deploy", "local", "start.mjs")], {
    cwd: ROOT,
    env,
    encoding: "utf8",
    timeout: 60_000,
  });

try {
  const bare = start(nowhere);
  const out = `${bare.stdout}${bare.stderr}`;
  check(bare.status === 1, "when nothing is installed, then npm start exits with 1", out);
  check(
    ["PostgreSQL", "Redis", "NATS"].every((n) =>
      new RegExp(`${n}: nothing answers at 127\\.0\\.0\\.1:9\\. Install it: .*apt-get install`).test(out),
    ),
    "when nothing is installed, then it names PostgreSQL, Redis and NATS, where it looked and how to install each",
    out,
  );
  check(/install Docker .*docker compose/i.test(out), "when Docker is not installed either, then it offers the Docker route", out);
  check(
    !/^\s+at .+:\d+:\d+\)?$/m.test(out) && !/Unhandled|node:internal/.test(out),
    "when nothing is installed, then no stack trace is printed",
    out,
  );

  writeFileSync(path.join(bin, "docker"), "#!/bin/sh\nexit 1\n");
  chmodSync(path.join(bin, "docker"), 0o755);
  // `command -v` runs in sh: give it one
  symlinkSync("/bin/sh", path.join(bin, "sh"));
  const stopped = start(nowhere);
  const out2 = `${stopped.stdout}${stopped.stderr}`;
  check(
    stopped.status === 1 && /Docker is installed but its engine does not answer/.test(out2),
    "when Docker's engine does not answer, then it says to start it",
    out2,
  );

  // npm test without a browser, where it cannot install one: one line, before any step runs
  const started = Date.now();
  const test = spawnSync(process.execPath, [path.join(ROOT, "deploy", "local", "test.mjs")], {
    cwd: ROOT,
    env: { ...nowhere, BB_E2E_CHROMIUM: path.join(bin, "no-chromium") },
    encoding: "utf8",
    timeout: 60_000,
  });
  const out3 = `${test.stdout}${test.stderr}`;
  check(
    test.status === 1 &&
      /npm test needs Chromium .* at .*no-chromium.*: install it \(Debian\/Ubuntu: sudo apt-get install chromium\)/.test(out3) &&
      /^0 passed, 1 failed$/m.test(test.stdout) &&
      !/type-checking|installing|linting/.test(out3) &&
      Date.now() - started < 10_000,
    "when Chromium is missing and cannot be installed, then npm test stops at once with one line saying what to install",
    out3,
  );
} finally {
  rmSync(bin, { recursive: true, force: true });
}
process.stdout.write(`${passed} passed, ${failed} failed\n`);
process.exit(failed === 0 ? 0 : 1);
