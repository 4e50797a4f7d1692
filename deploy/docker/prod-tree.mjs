// The production tree of one service, as the image copies it:
//
//   node deploy/docker/prod-tree.mjs <service> <out-dir>
//
// Run after `pnpm install`, the Prisma clients' generation and `node deploy/local/build.mjs`.
// <out-dir> gets the workspace's layout (the bundles require some packages by their path under
// packages/*/node_modules), with only what the service runs:
//   services/<svc>/dist                     the bundled JavaScript (and source maps)
//   services/<svc>/src/generated/prisma     its Prisma client (JS query compiler, no engine binary)
//   services/<svc>/prisma/migrations        applied at start, under an advisory lock
//   node_modules, packages/*/node_modules   production dependencies only, from the lockfile
//   deploy/docker/healthcheck.mjs           the image's HEALTHCHECK
// The Dockerfile runs this in its build stage; `node deploy/docker/prod-tree.test.mjs` runs it
// here (no Docker engine) and starts a service from the result.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");
const SERVICES = ["api-gateway", "identity", "tenancy", "inbox", "webhook-dispatcher", "realtime-gateway"];
const [service, outArg] = process.argv.slice(2);
if (!SERVICES.includes(service) || !outArg) {
  process.stderr.write(`usage: node deploy/docker/prod-tree.mjs <${SERVICES.join("|")}> <out-dir>\n`);
  process.exit(2);
}
const out = path.resolve(outArg);
const svcDir = path.join("services", service);
if (!existsSync(path.join(ROOT, svcDir, "dist"))) {
  process.stderr.write(`${svcDir}/dist is missing: run node deploy/local/build.mjs first\n`);
  process.exit(1);
}

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const copy = (rel) => {
  if (existsSync(path.join(ROOT, rel))) cpSync(path.join(ROOT, rel), path.join(out, rel), { recursive: true });
};

// The workspace skeleton: every package.json (the lockfile names every importer), the lockfile, and
// the dependency patches it names (pnpm-workspace.yaml's patchedDependencies: its hashes need the files).
for (const file of ["package.json", "pnpm-lock.yaml", "pnpm-workspace.yaml", ".npmrc", "patches"]) copy(file);
for (const group of ["packages", "services", "tests-e2e", "bench", "examples"]) {
  const dir = path.join(ROOT, group);
  if (!existsSync(dir)) continue;
  if (existsSync(path.join(dir, "package.json"))) copy(path.join(group, "package.json"));
  else for (const name of readdirSync(dir)) copy(path.join(group, name, "package.json"));
}

// Production dependencies of the service and of the workspace packages it uses, nothing else.
// --prefer-offline: the packages are in the store already after the build's full install.
const pnpm = spawnSync(
  "pnpm",
  [
    "install",
    "--frozen-lockfile",
    "--prod",
    "--prefer-offline",
    "--config.confirmModulesPurge=false",
    "--filter",
    `@burnbox/${service}...`,
  ],
  { cwd: out, stdio: ["ignore", "inherit", "inherit"], env: { ...process.env, CI: "true" } },
);
if (pnpm.status !== 0) {
  process.stderr.write(`pnpm install --prod failed for ${service}\n`);
  process.exit(1);
}

// What the lockfile installs but nothing running requires: the Prisma CLI and @prisma/client (the
// generated client under src/generated/prisma carries its own runtime and query compiler), their
// peers and build-time helpers (typescript, effect, fast-check), and type declarations.
const UNUSED = [
  /^prisma@/,
  /^@prisma\+client@/,
  /^@prisma\+(config|engines|engines-version|fetch-engine|get-platform)@/,
  /^typescript@/,
  /^effect@/,
  /^fast-check@/,
  /^@types\+/,
];
const store = path.join(out, "node_modules", ".pnpm");
for (const name of existsSync(store) ? readdirSync(store) : []) {
  if (UNUSED.some((re) => re.test(name))) rmSync(path.join(store, name), { recursive: true, force: true });
}
// nor does anything load the packages' source maps, type declarations or documents
spawnSync(
  "find",
  [
    store,
    "-type",
    "f",
    "(",
    "-name",
    "*.map",
    "-o",
    "-name",
    "*.d.ts",
    "-o",
    "-name",
    "*.d.mts",
    "-o",
    "-name",
    "*.d.cts",
    "-o",
    "-iname",
    "*.md",
    ")",
    "-delete",
  ],
  { stdio: "inherit" },
);
// the links to what was removed would dangle
spawnSync("find", [out, "-xtype", "l", "-delete"], { stdio: "inherit" });

copy(path.join(svcDir, "dist"));
copy(path.join(svcDir, "src", "generated", "prisma"));
// of the generated client, only the Node.js entry and what it loads (no edge, browser or type files)
const generated = path.join(out, svcDir, "src", "generated", "prisma");
if (existsSync(generated)) {
  const keep = /^(index\.js|package\.json|schema\.prisma|query_compiler_bg\.(js|wasm)|runtime|client\.js)$/;
  for (const name of readdirSync(generated)) if (!keep.test(name)) rmSync(path.join(generated, name), { recursive: true, force: true });
  const runtime = path.join(generated, "runtime");
  for (const name of existsSync(runtime) ? readdirSync(runtime) : [])
    if (name !== "client.js") rmSync(path.join(runtime, name), { force: true });
}
copy(path.join(svcDir, "prisma", "migrations"));
copy(path.join("deploy", "docker", "healthcheck.mjs"));

// The skeleton's package.json files of packages the service does not use stay: a few bytes, and
// pnpm's layout expects them. Their (never installed) node_modules do not exist.
process.stdout.write(`production tree of ${service} in ${out}\n`);
