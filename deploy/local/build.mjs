// `pnpm build`: plain JavaScript for every service entry point, so tests and `node` run without a
// TypeScript loader. Each entry becomes services/<svc>/dist/<entry>.js (CommonJS, node20, with a
// source map), plus dist/migrate.js for a service with a database (`main.js --migrate-only`).
// Workspace packages (@burnbox/*, whose "main" is TypeScript source) are bundled in; every other
// package stays a require() resolved at run time, from the service's node_modules.
//
// Building the api-gateway also builds the web console (packages/console, `vite build`, skipped
// when its output is newer than its sources) into services/api-gateway/dist/console, where the
// gateway serves it at / and the image's production tree picks it up with the rest of dist/.
//
//   node deploy/local/build.mjs                  every service
//   node deploy/local/build.mjs inbox identity   the named services
//   (from services/<svc>: node ../../deploy/local/build.mjs, that service)
import { cpSync, existsSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import * as esbuild from "esbuild";
import { buildConsole, CONSOLE_DIST } from "./console-build.mjs";
import { ROOT, say } from "./lib.mjs";

// Each service's entry points. A service with a database also gets dist/migrate.js (below), which
// applies its migrations and exits: the image's Kubernetes migration Job runs it.
const ENTRIES = {
  "api-gateway": ["main"],
  identity: ["main"],
  tenancy: ["main"],
  inbox: ["main", "smtp-main", "mailbox-main"],
  "webhook-dispatcher": ["main"],
  "realtime-gateway": ["main"],
  renderer: ["main"],
};

const SERVICES_DIR = path.join(ROOT, "services");
const GENERATED = /[\\/]src[\\/]generated[\\/]/;
const BARE = /^(?![./])(?!node:)[^/]/;
const SKIP = Symbol("plain resolution");

/** The real file a specifier names when required from `dir`, or null when it cannot be found from there. */
async function realFile(build, specifier, dir) {
  const r = await build.resolve(specifier, { resolveDir: dir, kind: "require-call", pluginData: SKIP });
  return r.errors.length > 0 || r.external || !r.path ? null : realpathSync(r.path);
}

/**
 * `file` (a real path) named through the `node_modules/<package>` link nearest to `dir`, so the
 * output reads packages/service-kit/node_modules/pino/... rather than a versioned store path.
 */
function throughLink(specifier, dir, file) {
  const name = specifier
    .split("/")
    .slice(0, specifier.startsWith("@") ? 2 : 1)
    .join("/");
  for (let d = dir; ; d = path.dirname(d)) {
    const link = path.join(d, "node_modules", name);
    if (existsSync(link)) {
      const root = realpathSync(link);
      return file.startsWith(root + path.sep) ? path.join(link, path.relative(root, file)) : file;
    }
    if (path.dirname(d) === d) return file;
  }
}

/**
 * Decides, import by import, what is bundled and what stays a require() in the output:
 * - `@burnbox/*`: bundled (TypeScript sources of this workspace);
 * - the Prisma client under src/generated: kept as a file beside the sources (it finds its
 *   schema and query compiler through its own __dirname), required by a path relative to dist/;
 * - any other package: external. pnpm gives a workspace package's dependencies (pino, NATS...)
 *   only to that package, so when the service cannot resolve the same file by name, the
 *   require() names the file by its path relative to dist/ instead.
 */
function externals(serviceDir, outdir) {
  const relative = (file) => {
    const rel = path.relative(outdir, file).split(path.sep).join("/");
    return rel.startsWith(".") ? rel : `./${rel}`;
  };
  return {
    name: "burnbox-externals",
    setup(build) {
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData === SKIP || args.kind === "entry-point") return undefined;
        if (args.path.startsWith("@burnbox/")) return undefined;
        if (!BARE.test(args.path)) {
          if (!args.path.startsWith(".")) return undefined;
          const target = path.resolve(args.resolveDir, args.path);
          if (!GENERATED.test(target)) return undefined;
          const file = await realFile(build, args.path, args.resolveDir);
          return file ? { path: relative(file), external: true } : undefined;
        }
        const fromImporter = await realFile(build, args.path, args.resolveDir);
        if (!fromImporter) return { path: args.path, external: true };
        const fromService = await realFile(build, args.path, serviceDir);
        if (fromService === fromImporter) return { path: args.path, external: true };
        return { path: relative(throughLink(args.path, args.resolveDir, fromImporter)), external: true };
      });
    },
  };
}

async function buildService(service) {
  const entries = ENTRIES[service];
  if (!entries) throw new Error(`unknown service ${service}; one of ${Object.keys(ENTRIES).join(", ")}`);
  const serviceDir = path.join(SERVICES_DIR, service);
  const outdir = path.join(serviceDir, "dist");
  rmSync(outdir, { recursive: true, force: true });
  // esbuild prints each error with its source line (logLevel); the message here only names the service
  await esbuild
    .build({
      absWorkingDir: serviceDir,
      entryPoints: entries.map((e) => path.join(serviceDir, "src", `${e}.ts`)),
      outdir,
      bundle: true,
      platform: "node",
      target: "node20",
      format: "cjs",
      sourcemap: true,
      logLevel: "warning",
      // no "module" condition: an external package must resolve to the file Node itself would require
      conditions: [],
      plugins: [externals(serviceDir, outdir)],
    })
    .catch(() => {
      throw new Error(`${service}: build failed (errors above)`);
    });
  const built = entries.map((e) => path.relative(ROOT, path.join(outdir, `${e}.js`)));
  // a service with a database: dist/migrate.js applies its migrations alone and exits (the image's
  // migration Job), the same as `node dist/main.js --migrate-only`
  if (existsSync(path.join(serviceDir, "prisma", "migrations"))) {
    writeFileSync(
      path.join(outdir, "migrate.js"),
      '"use strict";\n// the migrations alone, then exit: node dist/main.js --migrate-only\nprocess.argv.push("--migrate-only");\nrequire("./main.js");\n',
    );
    built.push(path.relative(ROOT, path.join(outdir, "migrate.js")));
  }
  return built;
}

/** The console's output, copied where the gateway's bundle looks for it (dist/console beside main.js). */
function placeConsole() {
  const target = path.join(SERVICES_DIR, "api-gateway", "dist", "console");
  rmSync(target, { recursive: true, force: true });
  cpSync(CONSOLE_DIST, target, { recursive: true });
  return path.relative(ROOT, target);
}

const requested = process.argv.slice(2);
const cwdService = path.dirname(process.cwd()) === SERVICES_DIR ? path.basename(process.cwd()) : null;
const services = requested.length > 0 ? requested : cwdService ? [cwdService] : Object.keys(ENTRIES);
const started = Date.now();
// every service is built even when one fails, so one run lists every error
const consoleBuild = services.includes("api-gateway") ? buildConsole() : null;
const results = await Promise.allSettled(services.map(buildService));
if (consoleBuild) {
  // after the gateway's build, which empties its dist/ first
  const gatewayBuilt = results[services.indexOf("api-gateway")].status === "fulfilled";
  results.push(
    await consoleBuild.then(
      (ran) => {
        if (!gatewayBuilt) return { status: "fulfilled", value: [] };
        const placed = placeConsole();
        return { status: "fulfilled", value: [ran ? `${placed} (vite build)` : `${placed} (console up to date)`] };
      },
      (reason) => ({ status: "rejected", reason }),
    ),
  );
}
const failures = results
  .filter((r) => r.status === "rejected")
  .map((r) => (r.reason instanceof Error ? r.reason.message : String(r.reason)));
const outputs = results.filter((r) => r.status === "fulfilled").flatMap((r) => r.value);
if (outputs.length > 0) say(`built ${outputs.join(", ")} in ${Date.now() - started} ms`);
for (const failure of failures) say(failure);
process.exit(failures.length === 0 ? 0 : 1);
