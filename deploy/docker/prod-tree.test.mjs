// The image's build stage without a Docker engine: makes the production tree of every service
// (deploy/docker/prod-tree.mjs, as the Dockerfile does) and starts each entry point from it as the
// image would: `node services/<svc>/dist/<entry>.js`, only that tree on disk, with its files
// read-only and, when this runs as root, as an unprivileged user (the image runs as `node`).
// Each must become ready on its port and pass the image's HEALTHCHECK script. The migration entry
// of each service with a database (what the Kubernetes migration Job runs) must migrate from the
// tree first, and a production configuration without its public names must refuse to start.
//
//   node deploy/docker/prod-tree.test.mjs [service...]     (after node deploy/local/build.mjs)
//
// Prints `N passed, N failed`. Uses the local Postgres, Redis and NATS, a database per service
// named bb_image_<svc> (dropped afterwards) and a NATS namespace of its own.
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");
const TARGETS = [
  { name: "identity", dir: "identity", entry: "main", port: 18101 },
  { name: "tenancy", dir: "tenancy", entry: "main", port: 18102 },
  { name: "inbox", dir: "inbox", entry: "main", port: 18103 },
  { name: "inbox-smtp", dir: "inbox", entry: "smtp-main", port: 18106 },
  { name: "webhook-dispatcher", dir: "webhook-dispatcher", entry: "main", port: 18104 },
  { name: "realtime-gateway", dir: "realtime-gateway", entry: "main", port: 18105 },
  { name: "api-gateway", dir: "api-gateway", entry: "main", port: 18080 },
];
const DB_SERVICES = ["identity", "tenancy", "inbox", "webhook-dispatcher", "realtime-gateway"];
// pg and the NATS client, for the clean-up, from the workspace package that depends on them
const kit = createRequire(path.join(ROOT, "packages", "service-kit", "package.json"));
const requested = process.argv.slice(2);
const targets = requested.length > 0 ? TARGETS.filter((t) => requested.includes(t.name)) : TARGETS;
const server = process.env.BB_TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const dbUrl = (svc) => {
  const u = new URL(server);
  u.pathname = `/bb_image_${svc.replaceAll("-", "_")}`;
  return u.toString();
};
const say = (m) => process.stdout.write(`[image] ${m}\n`);
const asRoot = process.getuid?.() === 0;
const work = mkdtempSync(path.join(os.tmpdir(), "bb-image-"));
chmodSync(work, 0o755);
const namespace = `img${randomBytes(3).toString("hex")}`;
const trees = new Map();
let passed = 0;
let failed = 0;
const check = (ok, what) => {
  say(`${ok ? "ok  " : "FAIL"} ${what}`);
  if (ok) passed++;
  else failed++;
  return ok;
};

async function waitReady(port, child) {
  for (let i = 0; i < 240; i++) {
    if (child.exitCode !== null) return false;
    const ok = await fetch(`http://127.0.0.1:${port}/readyz`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return true;
    await new Promise((r) => setTimeout(r, 250));
  }
  return false;
}

function asUser(cmd, args) {
  return asRoot ? ["setpriv", ["--reuid=nobody", "--regid=nogroup", "--clear-groups", "--", cmd, ...args]] : [cmd, args];
}

/** Drops the databases and the NATS streams this run made. */
async function cleanUp(dbServices) {
  const { Client } = kit("pg");
  const pg = new Client({ connectionString: server });
  await pg.connect();
  for (const d of dbServices) await pg.query(`DROP DATABASE IF EXISTS bb_image_${d.replaceAll("-", "_")} WITH (FORCE)`);
  await pg.end();
  const { connect } = kit("@nats-io/transport-node");
  const { jetstreamManager } = kit("@nats-io/jetstream");
  const nc = await connect({ servers: process.env.NATS_URL ?? "nats://127.0.0.1:4222" });
  const jsm = await jetstreamManager(nc);
  for (const suffix of ["EVENTS", "DLQ"]) await jsm.streams.delete(`${namespace.toUpperCase()}_${suffix}`).catch(() => false);
  await nc.close();
}

try {
  for (const t of targets) {
    let tree = trees.get(t.dir);
    if (!tree) {
      tree = path.join(work, t.dir);
      const made = spawnSync(process.execPath, [path.join(ROOT, "deploy", "docker", "prod-tree.mjs"), t.dir, tree], { stdio: "inherit" });
      if (!check(made.status === 0, `${t.dir}: production tree made`)) continue;
      // read-only for everyone, as a read-only root filesystem makes it
      spawnSync("chmod", ["-R", "a-w", tree]);
      trees.set(t.dir, tree);
    }
    const storage = mkdtempSync(path.join(work, `storage-${t.name}-`));
    chmodSync(storage, 0o777);
    const env = {
      PATH: process.env.PATH,
      NODE_ENV: "production",
      BB_HTTP_PORT: String(t.port),
      BB_SMTP_PORT: "12525",
      BB_INTERNAL_SECRET: randomBytes(24).toString("hex"),
      BB_AUTH_JWT_SECRET: randomBytes(24).toString("hex"),
      BB_NATS_NAMESPACE: namespace,
      BB_LOG_LEVEL: "warn",
      BB_STORAGE_LOCAL_PATH: storage,
      BB_DATABASE_URL: dbUrl(t.dir),
      REDIS_URL: process.env.REDIS_URL ?? "redis://127.0.0.1:6379",
      NATS_URL: process.env.NATS_URL ?? "nats://127.0.0.1:4222",
    };
    if (!DB_SERVICES.includes(t.dir)) delete env.BB_DATABASE_URL;
    if (t.name !== "inbox" && t.name !== "inbox-smtp") delete env.BB_STORAGE_LOCAL_PATH;
    if (t.name !== "inbox-smtp") delete env.BB_SMTP_PORT;
    if (t.name !== "identity" && t.name !== "api-gateway" && t.name !== "realtime-gateway") delete env.BB_AUTH_JWT_SECRET;
    if (t.name === t.dir && DB_SERVICES.includes(t.dir)) {
      // the migration Job's command: node services/<svc>/dist/migrate.js, with only the database URL
      const [mc, margs] = asUser(process.execPath, [`services/${t.dir}/dist/migrate.js`]);
      const migrated = spawnSync(mc, margs, {
        cwd: tree,
        env: { PATH: process.env.PATH, NODE_ENV: "production", BB_LOG_LEVEL: "warn", BB_DATABASE_URL: env.BB_DATABASE_URL },
        encoding: "utf8",
        timeout: 60_000,
      });
      if (!check(migrated.status === 0, `${t.dir}: the migration entry migrates its database from the production tree`))
        process.stderr.write(`${migrated.stdout}${migrated.stderr}`.slice(-4000));
    }
    if (t.name === "identity" || t.name === "inbox-smtp") {
      // BB_DEPLOYMENT_MODE=production without the public names: refused at start, naming the setting
      const setting = t.name === "identity" ? "BB_BASE_URL" : "BB_SMTP_HOSTNAME";
      const [pc, pargs] = asUser(process.execPath, [`services/${t.dir}/dist/${t.entry}.js`]);
      const refused = spawnSync(pc, pargs, {
        cwd: tree,
        env: { ...env, BB_DEPLOYMENT_MODE: "production" },
        encoding: "utf8",
        timeout: 30_000,
      });
      check(
        refused.status === 1 && refused.stderr.includes(`(${setting}): required when deployment.mode is production`),
        `${t.name}: in production mode without ${setting}, refuses to start and names it`,
      );
    }
    const [cmd, args] = asUser(process.execPath, [`services/${t.dir}/dist/${t.entry}.js`]);
    const child = spawn(cmd, args, { cwd: tree, env, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (c) => (stderr += c.toString("utf8")));
    const ready = await waitReady(t.port, child);
    if (!check(ready, `${t.name}: starts from the production tree as ${asRoot ? "nobody" : "this user"} and becomes ready`)) {
      process.stderr.write(stderr.slice(-4000));
    } else {
      const [hc, hcArgs] = asUser(process.execPath, ["deploy/docker/healthcheck.mjs"]);
      const health = spawnSync(hc, hcArgs, { cwd: tree, env: { PATH: process.env.PATH, BB_HTTP_PORT: String(t.port) } });
      check(health.status === 0, `${t.name}: the HEALTHCHECK script passes on BB_HTTP_PORT`);
      if (t.name === "api-gateway") {
        // the web console's build rides in dist/console: a deep link answers its page
        const page = await fetch(`http://127.0.0.1:${t.port}/account`).catch(() => null);
        const html = page?.ok ? await page.text() : "";
        check(
          page?.headers.get("content-type")?.startsWith("text/html") === true &&
            /<script type="module"[^>]* src="\/assets\//.test(html) &&
            page.headers.get("content-security-policy")?.includes("script-src 'self'") === true,
          "api-gateway: serves the web console from the production tree (a deep link answers its page)",
        );
      }
    }
    child.kill("SIGTERM");
    await new Promise((r) => (child.exitCode !== null ? r() : child.once("exit", r)));
  }
} finally {
  spawnSync("chmod", ["-R", "u+w", work]);
  rmSync(work, { recursive: true, force: true });
  await cleanUp([...new Set(targets.map((t) => t.dir))].filter((d) => DB_SERVICES.includes(d)));
}
process.stdout.write(`${passed} passed, ${failed} failed\n`);
process.exit(failed === 0 ? 0 : 1);
