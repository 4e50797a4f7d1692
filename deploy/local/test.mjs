// `npm test`: every test of the repository. Brings up Postgres, Redis and NATS when they are not
// running, installs dependencies, generates Prisma clients, type-checks and lints, runs unit and
// integration tests, builds the services, then runs the end-to-end tests against the build, and
// ends with one line: `N passed, N failed`.
//
// `--e2e-replicas` (`npm run test:replicas`): only the end-to-end suite, built first, against two
// replicas of every process (BB_E2E_REPLICAS=2: both gateways spread requests over both sets of
// services; see tests-e2e/src/shared-system.ts). Not part of `npm test`.
import { spawnSync } from "node:child_process";
import { accessSync, constants, mkdirSync, readFileSync, existsSync, rmSync } from "node:fs";
import path from "node:path";
import { ROOT, prepare, say } from "./lib.mjs";

const results = path.join(ROOT, ".test-results");
mkdirSync(results, { recursive: true });
const bin = (name) => path.join(ROOT, "node_modules", ".bin", name);
const step = (title, cmd, args, opts = {}) => {
  say(title);
  const started = Date.now();
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: "inherit", ...opts });
  say(`${title}: ${r.status === 0 ? "ok" : "FAILED"} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return r.status === 0;
};

const UNIT_AND_INTEGRATION = [
  "packages/contracts",
  "packages/service-kit",
  "packages/tenant-removal",
  "packages/sdk",
  "packages/cli",
  "packages/console",
  "services/api-gateway",
  "services/identity",
  "services/tenancy",
  "services/inbox",
  "services/webhook-dispatcher",
  "services/realtime-gateway",
];

function jest(title, projects, outName, extra = []) {
  const out = path.join(results, outName);
  if (existsSync(out)) rmSync(out);
  const workers = extra.includes("--runInBand") ? [] : ["--maxWorkers=2"];
  // --forceExit: a handle left open by one suite must never hold CI until its time limit
  step(title, bin("jest"), ["--projects", ...projects, "--json", `--outputFile=${out}`, "--forceExit", ...workers, ...extra]);
  if (!existsSync(out)) return { passed: 0, failed: 1 };
  const r = JSON.parse(readFileSync(out, "utf8"));
  // a suite that could not run counts as a failure even though none of its tests did
  return { passed: r.numPassedTests, failed: r.numFailedTests + r.numRuntimeErrorTestSuites };
}

/** Runs a node script that ends with `N passed, N failed` and returns its counts. */
function counted(title, script, args = []) {
  say(title);
  const started = Date.now();
  const r = spawnSync(process.execPath, [path.join(ROOT, script), ...args], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "inherit"],
    encoding: "utf8",
  });
  process.stdout.write(r.stdout ?? "");
  const m = /^(\d+) passed, (\d+) failed$/m.exec(r.stdout ?? "");
  say(`${title}: ${r.status === 0 ? "ok" : "FAILED"} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const counts = m ? { passed: Number(m[1]), failed: Number(m[2]) } : { passed: 0, failed: 1 };
  return r.status === 0 || counts.failed > 0 ? counts : { passed: counts.passed, failed: 1 };
}

/** Whether `file` exists and may be executed. */
function executable(file) {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The tools the tests need from Debian's packages: the browser of the console's tests and the
 * Playwright example (Debian's Chromium, /usr/bin/chromium or BB_E2E_CHROMIUM, never a downloaded
 * one), and the toolchains of the clients in other languages. Each is installed here when it is
 * missing and it can be (root and apt-get, one apt-get run for all); otherwise the one line that
 * says what to install. Add a tool as one entry of TOOLS.
 */
const TOOLS = [
  {
    binary: process.env.BB_E2E_CHROMIUM ?? "/usr/bin/chromium",
    packages: ["chromium"],
    installable: !process.env.BB_E2E_CHROMIUM,
    need: "Chromium for the console's browser tests (or set BB_E2E_CHROMIUM to a Chromium binary)",
  },
  { binary: "/usr/bin/go", packages: ["golang-go"], need: "Go for the tests of the Go client (packages/sdk-go)" },
  { binary: "/usr/bin/rspamd", packages: ["rspamd"], need: "rspamd for the spam score's tests (extensions section 9)" },
  {
    binary: "/usr/bin/fetchmail",
    packages: ["fetchmail"],
    need: "fetchmail, a real IMAP and POP3 client, for the mailbox's tests (extensions section 11)",
  },
  {
    // packages/sdk-python: pip installs it offline with Debian's setuptools into a venv whose pytest is Debian's
    binary: "/usr/bin/pytest-3",
    packages: ["python3-pytest", "python3-setuptools", "python3-pip", "python3-venv"],
    need: "Python 3 with pytest, setuptools, pip and venv for the Python client's tests",
  },
  {
    // burnbox-java builds offline against Debian's /usr/share/maven-repo: a machine can have mvn
    // without the artifacts its pom pins, so those are checked too
    binary: "/usr/bin/mvn",
    files: [
      "/usr/share/maven-repo/com/fasterxml/jackson/core/jackson-databind/2.14.0/jackson-databind-2.14.0.jar",
      "/usr/share/maven-repo/org/junit/jupiter/junit-jupiter-engine/5.9.2/junit-jupiter-engine-5.9.2.jar",
      "/usr/share/maven-repo/org/apache/maven/surefire/surefire-junit-platform/2.22.3/surefire-junit-platform-2.22.3.jar",
      "/usr/share/maven-repo/org/apache/maven/plugins/maven-compiler-plugin/3.10.1/maven-compiler-plugin-3.10.1.jar",
    ],
    packages: [
      "default-jdk-headless",
      "maven",
      "libjackson2-databind-java",
      "junit5",
      "libmaven-compiler-plugin-java",
      "libmaven-resources-plugin-java",
      "libmaven-jar-plugin-java",
      "libsurefire-java",
    ],
    need: "a JDK, Maven and Debian's packaged Maven artifacts for burnbox-java (packages/sdk-java)",
  },
];

/** Whether a tool is there: its binary may be executed and every file it needs exists. */
const present = (t) => executable(t.binary) && (t.files ?? []).every((f) => existsSync(f));

function ensureTools() {
  let missing = TOOLS.filter((t) => !present(t));
  if (missing.length === 0) return null;
  const root = typeof process.getuid === "function" && process.getuid() === 0;
  const aptGet = spawnSync("sh", ["-c", "command -v apt-get"], { encoding: "utf8" }).status === 0;
  const packages = [...new Set(missing.filter((t) => t.installable !== false).flatMap((t) => t.packages))];
  if (root && aptGet && packages.length > 0) {
    say(`installing what the tests need from Debian's packages (apt-get install ${packages.join(" ")})`);
    const quiet = { stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } };
    if (spawnSync("apt-get", ["update", "-qq"], quiet).status === 0)
      spawnSync("apt-get", ["install", "-y", "-qq", "--no-install-recommends", ...packages], quiet);
    missing = missing.filter((t) => !present(t));
  }
  if (missing.length === 0) return null;
  return missing
    .map(
      (t) =>
        `npm test needs ${t.need} at ${t.binary}: install it (Debian/Ubuntu: sudo apt-get install ${t.packages.join(" ")}), then run npm test again`,
    )
    .join("\n");
}

let passed = 0;
let failed = 0;
const noTools = ensureTools();
if (noTools) {
  process.stderr.write(`[burnbox] ${noTools}\n`);
  process.stdout.write("0 passed, 1 failed\n");
  process.exit(1);
}
try {
  await prepare();
} catch (err) {
  process.stderr.write(`${err.message}\n`);
  process.stdout.write("0 passed, 1 failed\n");
  process.exit(1);
}
if (process.argv.includes("--e2e-replicas")) {
  const started = Date.now();
  let counts = { passed: 0, failed: 1 };
  if (step("building the services", process.execPath, [path.join(ROOT, "deploy", "local", "build.mjs")])) {
    process.env.BB_E2E_REPLICAS = "2";
    counts = jest("end-to-end tests, two replicas of every process", ["tests-e2e"], "jest-e2e-replicas.json", ["--runInBand"]);
  }
  say(`two-replica end-to-end run: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  process.stdout.write(`${counts.passed} passed, ${counts.failed} failed\n`);
  process.exit(counts.failed === 0 ? 0 : 1);
}
if (!step("type-checking every package", "pnpm", ["-r", "--workspace-concurrency=2", "--no-bail", "run", "typecheck"])) failed++;
// type-aware linting keeps one TypeScript program per package in memory: more than node's default heap
const lintEnv = { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --max-old-space-size=8192`.trim() };
if (!step("linting", bin("eslint"), [".", "--max-warnings", "0"], { env: lintEnv })) failed++;
if (!step("checking formatting", bin("prettier"), ["--check", "."], { stdio: ["ignore", "ignore", "inherit"] })) failed++;
// deployment files: Kubernetes manifests built and validated against the API schemas, compose file
for (const [title, script, args] of [
  ["validating the Kubernetes manifests", "deploy/k8s/validate.mjs"],
  ["checking docker-compose.yml", "deploy/docker/compose-check.mjs"],
  ["first run on a machine without dependencies", "deploy/local/first-run.test.mjs"],
  ["npm start's NATS and Redis take no client without credentials", "deploy/local/brokers.test.mjs"],
  ["npm start's summary", "deploy/local/summary.test.mjs"],
  ["the migrations keep the previous release working (migration linter)", "deploy/local/migration-lint.test.mjs"],
  ["the service layout guide's claims", "deploy/local/service-layout.test.mjs"],
  ["the kit's list of every service's settings", "deploy/local/known-settings.mjs", ["--check"]],
  ["the other languages' clients' calls against the OpenAPI document", "deploy/local/client-calls.mjs", ["--check"]],
  ["the check of the clients' calls", "deploy/local/client-calls.test.mjs"],
]) {
  const r = counted(title, script, args);
  passed += r.passed;
  failed += r.failed;
}
const unitAndIntegration = jest("unit and integration tests", UNIT_AND_INTEGRATION, "jest-unit-integration.json");
passed += unitAndIntegration.passed;
failed += unitAndIntegration.failed;
// the end-to-end suite runs the compiled services (one system for all its files; see tests-e2e/jest.config.js)
if (step("building the services", process.execPath, [path.join(ROOT, "deploy", "local", "build.mjs")])) {
  const e2e = jest("end-to-end tests", ["tests-e2e"], "jest-e2e.json", ["--runInBand"]);
  passed += e2e.passed;
  failed += e2e.failed;
  // the image's build stage without Docker: production trees, each entry started from its own
  const image = counted("image build stage: production trees", "deploy/docker/prod-tree.test.mjs");
  passed += image.passed;
  failed += image.failed;
} else failed++;
process.stdout.write(`${passed} passed, ${failed} failed\n`);
process.exit(failed === 0 ? 0 : 1);
