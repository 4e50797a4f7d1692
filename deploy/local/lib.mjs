// Shared steps of `npm start` and `npm test`: reach (or start) Postgres, Redis and NATS, install
// dependencies, generate the Prisma clients. Plain Node, no dependencies: it runs before install.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import net from "node:net";
import path from "node:path";

export const ROOT = path.resolve(import.meta.dirname, "../..");
export const DB_SERVICES = ["identity", "tenancy", "inbox", "webhook-dispatcher", "realtime-gateway"];

const say = (msg) => process.stdout.write(`[burnbox] ${msg}\n`);
export { say };

export function reachable(host, port, timeoutMs = 1000) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
  });
}

export const has = (cmd) => spawnSync("sh", ["-c", `command -v ${cmd}`], { stdio: "ignore" }).status === 0;
const run = (cmd, args) => spawnSync(cmd, args, { stdio: "inherit" }).status === 0;

function hostPort(url, fallbackPort) {
  const u = new URL(url);
  return { host: u.hostname || "127.0.0.1", port: Number(u.port || fallbackPort) };
}

/** The three dependencies, where to find them, and how to start each on a machine like ours. */
function dependencies() {
  return [
    {
      name: "PostgreSQL",
      ...hostPort(process.env.DATABASE_URL ?? process.env.BB_TEST_POSTGRES_URL ?? "postgresql://127.0.0.1:5432", 5432),
      start: () => {
        if (!has("pg_ctlcluster") || !existsSync("/etc/postgresql")) return false;
        const version = readdirSync("/etc/postgresql")[0];
        return version ? run("pg_ctlcluster", ["--skip-systemctl-redirect", version, "main", "start"]) : false;
      },
      compose: "postgres",
    },
    {
      name: "Redis",
      ...hostPort(process.env.REDIS_URL ?? "redis://127.0.0.1:6379", 6379),
      start: () =>
        has("redis-server") &&
        run("redis-server", [
          "--daemonize",
          "yes",
          "--bind",
          "127.0.0.1",
          "-::1",
          "--port",
          "6379",
          "--save",
          "",
          "--appendonly",
          "no",
          "--dir",
          existsSync("/var/lib/redis") ? "/var/lib/redis" : "/tmp",
          "--logfile",
          existsSync("/var/log/redis") ? "/var/log/redis/ci.log" : "/tmp/redis.log",
        ]),
      compose: "redis",
    },
    {
      name: "NATS",
      ...hostPort(process.env.NATS_URL ?? "nats://127.0.0.1:4222", 4222),
      start: () => {
        if (!has("nats-server")) return false;
        const bin = execFileSync("sh", ["-c", "command -v nats-server"], { encoding: "utf8" }).trim();
        const store = existsSync("/var/lib/nats-server") ? "/var/lib/nats-server" : "/tmp/nats-store";
        const log = existsSync("/var/log") ? "/var/log/nats-server.log" : "/tmp/nats-server.log";
        if (has("start-stop-daemon")) {
          return run("start-stop-daemon", [
            "--start",
            "--oknodo",
            "--background",
            "--exec",
            bin,
            "--",
            "-a",
            "127.0.0.1",
            "-p",
            "4222",
            "-js",
            "-sd",
            store,
            "-l",
            log,
          ]);
        }
        return run("sh", ["-c", `nohup ${bin} -a 127.0.0.1 -p 4222 -js -sd ${store} -l ${log} >/dev/null 2>&1 &`]);
      },
      compose: "nats",
    },
  ];
}

async function waitUntil(host, port, seconds) {
  for (let i = 0; i < seconds * 4; i++) {
    if (await reachable(host, port)) return true;
    await new Promise((r) => setTimeout(r, 250));
  }
  return false;
}

/** How to get each dependency on a machine without it (Debian/Ubuntu, macOS with Homebrew, Docker). */
const HOW_TO_GET = {
  PostgreSQL: "apt-get install postgresql (Debian/Ubuntu) or brew install postgresql@15 && brew services start postgresql@15 (macOS)",
  Redis: "apt-get install redis-server or brew install redis",
  NATS: "apt-get install nats-server, brew install nats-server, or the release binary from the NATS project; run it with -js (JetStream)",
};

/** Raised when a dependency is missing: its message says what is missing and how to get it. */
export class MissingDependencies extends Error {
  constructor(missing, docker) {
    super(missingDependenciesHelp(missing, docker));
    this.name = "MissingDependencies";
    this.missing = missing;
  }
}

/**
 * The first-run message for `missing` ([{name, host, port}]): each one, where it was looked for,
 * how to install it, and the Docker route (`docker` says whether a client is installed and
 * whether its engine answers).
 */
export function missingDependenciesHelp(missing, docker = { client: false, engine: false }) {
  const lines = [
    `BurnBox needs ${missing.map((m) => m.name).join(", ")}, which ${missing.length === 1 ? "is" : "are"} not running and could not be started:`,
  ];
  for (const m of missing)
    lines.push(`  - ${m.name}: nothing answers at ${m.host}:${m.port}. Install it: ${HOW_TO_GET[m.name] ?? "see the README"}.`);
  if (!docker.client) {
    lines.push("Or install Docker (with the compose plugin) and run npm start again: it then starts them with docker compose.");
  } else if (!docker.engine) {
    lines.push("Docker is installed but its engine does not answer (docker info failed): start it and run npm start again.");
  }
  lines.push("Already running elsewhere? Point DATABASE_URL, REDIS_URL and NATS_URL at them. Details: README.md, section Deploy.");
  return lines.join("\n");
}

const dockerState = () => {
  const client = has("docker");
  return { client, engine: client && spawnSync("docker", ["info"], { stdio: "ignore" }).status === 0 };
};

/**
 * Makes sure Postgres, Redis and NATS answer: starts local servers, or the compose stack's when a
 * Docker engine answers (`composeEnv`: the variables docker compose needs, the two secrets
 * included). Throws MissingDependencies naming every one that is still missing. `skip`: names
 * (`Redis`, `NATS`) the caller runs itself (npm start's own brokers, deploy/local/brokers.mjs).
 */
export async function ensureInfra(composeEnv = {}, { skip = [] } = {}) {
  const missing = [];
  let docker = null;
  for (const dep of dependencies().filter((d) => !skip.includes(d.name))) {
    if (await reachable(dep.host, dep.port)) continue;
    say(`${dep.name} is not reachable at ${dep.host}:${dep.port}; starting it`);
    let started = dep.start();
    if (!started) {
      docker ??= dockerState();
      if (docker.engine) {
        say(`starting ${dep.name} with docker compose`);
        started =
          spawnSync("docker", ["compose", "-f", path.join(ROOT, "docker-compose.yml"), "up", "-d", "--wait", dep.compose], {
            stdio: "inherit",
            env: { ...process.env, ...composeEnv },
          }).status === 0;
      }
    }
    if (!started || !(await waitUntil(dep.host, dep.port, 30))) {
      missing.push(dep);
      continue;
    }
    say(`${dep.name} is up`);
  }
  if (missing.length > 0) throw new MissingDependencies(missing, docker ?? dockerState());
}

function pnpm() {
  if (has("pnpm")) return ["pnpm"];
  say("pnpm not found; installing pnpm 10 with npm");
  if (run("npm", ["install", "-g", "pnpm@10"]) && has("pnpm")) return ["pnpm"];
  return ["npx", "--yes", "pnpm@10"];
}

/** Installs dependencies from the lockfile when node_modules is missing or older than the lockfile. */
export function ensureDeps({ force = false } = {}) {
  const marker = path.join(ROOT, "node_modules", ".modules.yaml");
  const lock = path.join(ROOT, "pnpm-lock.yaml");
  if (!force && existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) return;
  const [cmd, ...pre] = pnpm();
  say("installing dependencies (pnpm install --frozen-lockfile)");
  if (!run(cmd, [...pre, "install", "--frozen-lockfile"])) throw new Error("pnpm install failed");
}

/** Generates each database service's Prisma client (in parallel) when it is missing or older than its schema. */
export async function ensurePrismaClients() {
  const stale = DB_SERVICES.filter((svc) => {
    const dir = path.join(ROOT, "services", svc);
    const client = path.join(dir, "src", "generated", "prisma", "index.js");
    return !existsSync(client) || statSync(client).mtimeMs < statSync(path.join(dir, "prisma", "schema.prisma")).mtimeMs;
  });
  if (stale.length === 0) return;
  say(`generating Prisma clients: ${stale.join(", ")}`);
  await Promise.all(
    stale.map(
      (svc) =>
        new Promise((resolve, reject) => {
          const child = spawn(process.execPath, [path.join(ROOT, "deploy", "local", "prisma-generate.mjs")], {
            cwd: path.join(ROOT, "services", svc),
            stdio: ["ignore", "ignore", "inherit"],
          });
          child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`prisma generate failed for ${svc}`))));
        }),
    ),
  );
}

export async function prepare(composeEnv = {}, opts = {}) {
  await ensureInfra(composeEnv, opts);
  ensureDeps();
  await ensurePrismaClients();
}
