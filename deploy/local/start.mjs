// `npm start`: the whole system in the foreground. Brings up Postgres, Redis and NATS when they
// are not running, installs dependencies, generates Prisma clients, then starts every service
// and the SMTP intake (each creates and migrates its own database) and prints where to go.
// Ctrl-C stops everything. On a machine without them it says what is missing and how to get it.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

// checked before anything else loads: lib.mjs itself needs 20.11 (import.meta.dirname)
const [major, minor] = process.versions.node.split(".").map(Number);
if (major < 20 || (major === 20 && minor < 11)) {
  process.stderr.write(
    `[burnbox] Node.js ${process.versions.node} is too old: BurnBox needs Node.js 20.11 or newer (24 LTS recommended; 20 is past its end of life). Install it from your package manager, nvm (nvm install 24) or nodejs.org, and run npm start again.\n`,
  );
  process.exit(1);
}
const { ROOT, prepare, say, MissingDependencies } = await import("./lib.mjs");

const env = process.env;
const gatewayPort = env.BB_HTTP_PORT ?? "8080";
const smtpPort = env.BB_SMTP_PORT ?? "2525";

/** Development secrets, made once per checkout and kept out of git (.data/). */
function devSecrets() {
  const file = path.join(ROOT, ".data", "dev-secrets.json");
  const known = existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : {};
  const secrets = {
    internal: known.internal ?? randomBytes(32).toString("hex"),
    jwt: known.jwt ?? randomBytes(32).toString("hex"),
    postgres: known.postgres ?? randomBytes(16).toString("hex"),
    // seals stored secrets (mailer password, storage secret key, SSO client secrets) in every service
    encryption: known.encryption ?? randomBytes(32).toString("hex"),
  };
  if (JSON.stringify(secrets) !== JSON.stringify(known)) {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(secrets), { mode: 0o600 });
  }
  return secrets;
}

const PROCESSES = [
  { name: "identity", dir: "identity", entry: "src/main.ts", port: "8101" },
  { name: "tenancy", dir: "tenancy", entry: "src/main.ts", port: "8102" },
  { name: "inbox", dir: "inbox", entry: "src/main.ts", port: "8103" },
  { name: "inbox-smtp", dir: "inbox", entry: "src/smtp-main.ts", port: "8106" },
  { name: "webhook-dispatcher", dir: "webhook-dispatcher", entry: "src/main.ts", port: "8104" },
  { name: "realtime-gateway", dir: "realtime-gateway", entry: "src/main.ts", port: "8105" },
  { name: "api-gateway", dir: "api-gateway", entry: "src/main.ts", port: gatewayPort },
];

async function waitReady(port, name, child) {
  for (let i = 0; i < 240; i++) {
    if (child.exitCode !== null) throw new Error(`${name} exited during start (code ${child.exitCode})`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/readyz`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${name} did not become ready`);
}

// the secrets exist before anything else: the docker compose fallback needs them to read its file
const secrets = devSecrets();
const internalSecret = env.BB_INTERNAL_SECRET ?? secrets.internal;
const jwtSecret = env.BB_AUTH_JWT_SECRET ?? secrets.jwt;
const postgresPassword = env.BB_POSTGRES_PASSWORD ?? secrets.postgres;
const encryptionKey = env.BB_ENCRYPTION_KEY ?? secrets.encryption;
try {
  await prepare({
    BB_INTERNAL_SECRET: internalSecret,
    BB_AUTH_JWT_SECRET: jwtSecret,
    BB_POSTGRES_PASSWORD: postgresPassword,
    BB_ENCRYPTION_KEY: encryptionKey,
  });
} catch (err) {
  // a first run on a bare machine ends with what to do, not a stack trace
  process.stderr.write(`[burnbox] ${err instanceof MissingDependencies ? err.message.replaceAll("\n", "\n[burnbox] ") : err.message}\n`);
  process.exit(1);
}
const shared = {
  ...env,
  // one Postgres server; each service uses its own database on it (burnbox_identity, ...). The
  // password is the compose stack's; a local server with trust authentication ignores it.
  DATABASE_URL: env.DATABASE_URL ?? `postgresql://postgres:${postgresPassword}@127.0.0.1:5432/postgres`,
  BB_INTERNAL_SECRET: internalSecret,
  BB_AUTH_JWT_SECRET: jwtSecret,
  BB_ENCRYPTION_KEY: encryptionKey,
  BB_DOMAINS_TRUSTED: env.BB_DOMAINS_TRUSTED ?? "burnbox.test",
  BB_SMTP_PORT: smtpPort,
  BB_STORAGE_LOCAL_PATH: env.BB_STORAGE_LOCAL_PATH ?? path.join(ROOT, ".data", "storage"),
  BB_LOG_LEVEL: env.BB_LOG_LEVEL ?? "info",
  // no load balancer to leave on Ctrl-C: stop at once (production waits shutdown.drain_delay)
  BB_SHUTDOWN_DRAIN_DELAY: env.BB_SHUTDOWN_DRAIN_DELAY ?? "0s",
};

const children = new Map();
let stopping = false;
const width = Math.max(...PROCESSES.map((p) => p.name.length));

function launch(p) {
  const child = spawn(process.execPath, ["--import", "tsx", p.entry], {
    cwd: path.join(ROOT, "services", p.dir),
    env: { ...shared, BB_HTTP_PORT: p.port },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const prefix = `${p.name.padEnd(width)} | `;
  const pipe = (stream, out) => {
    let rest = "";
    stream.on("data", (chunk) => {
      const lines = (rest + chunk.toString("utf8")).split("\n");
      rest = lines.pop() ?? "";
      for (const line of lines) out.write(prefix + line + "\n");
    });
  };
  pipe(child.stdout, process.stdout);
  pipe(child.stderr, process.stderr);
  child.on("exit", (code, signal) => {
    children.delete(p.name);
    if (!stopping) {
      say(`${p.name} stopped (${signal ?? code}); stopping everything`);
      void shutdown(1);
    }
  });
  children.set(p.name, child);
  return child;
}

async function shutdown(code = 0) {
  if (stopping) return;
  stopping = true;
  say("stopping all services");
  for (const child of children.values()) child.kill("SIGTERM");
  const deadline = Date.now() + 20_000;
  while (children.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  for (const child of children.values()) child.kill("SIGKILL");
  process.exit(code);
}
process.on("SIGINT", () => void shutdown(0));
process.on("SIGTERM", () => void shutdown(0));

try {
  const downstream = PROCESSES.filter((p) => p.name !== "api-gateway");
  await Promise.all(downstream.map((p) => waitReady(p.port, p.name, launch(p))));
  const gw = PROCESSES.find((p) => p.name === "api-gateway");
  await waitReady(gw.port, gw.name, launch(gw));
} catch (err) {
  say(err.message);
  await shutdown(1);
}

say("BurnBox is running. Ctrl-C stops everything.");
say(`  API        http://localhost:${gatewayPort}/api/v1`);
say(`  API docs   http://localhost:${gatewayPort}/api/v1/docs`);
say(`  WebSocket  ws://localhost:${gatewayPort}/api/v1/ws/inboxes/<id>?ticket=<ticket>`);
say(`  SMTP       localhost:${smtpPort}`);
say(`  Trusted domain for local inboxes: ${shared.BB_DOMAINS_TRUSTED} (and its subdomains)`);
