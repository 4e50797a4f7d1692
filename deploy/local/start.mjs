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
const { ROOT, prepare, say, has, MissingDependencies } = await import("./lib.mjs");
const { NATS_USERS, serverAuth, startBrokers } = await import("./brokers.mjs");
const { buildConsole, CONSOLE_DIST } = await import("./console-build.mjs");
const { setupCompleted, setupToken, summaryLines } = await import("./summary.mjs");
const { rspamdInstalled, startRspamd, stopRspamd } = await import("./rspamd.mjs");

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
    // npm start's own NATS (a password per service) and Redis; `burnbox` is the compose stack's NATS user
    nats: Object.fromEntries(["burnbox", ...NATS_USERS].map((u) => [u, known.nats?.[u] ?? randomBytes(24).toString("hex")])),
    redis: known.redis ?? randomBytes(24).toString("hex"),
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
  { name: "inbox-mailbox", dir: "inbox", entry: "src/mailbox-main.ts", port: "8108" },
  { name: "webhook-dispatcher", dir: "webhook-dispatcher", entry: "src/main.ts", port: "8104" },
  { name: "realtime-gateway", dir: "realtime-gateway", entry: "src/main.ts", port: "8105" },
  { name: "renderer", dir: "renderer", entry: "src/main.ts", port: "8107" },
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
// NATS and Redis of npm start's own, with credentials, unless the caller names theirs or the servers are not installed
const ownBrokers = !env.NATS_URL && !env.REDIS_URL && has("nats-server") && has("redis-server");
try {
  await prepare(
    {
      BB_INTERNAL_SECRET: internalSecret,
      BB_AUTH_JWT_SECRET: jwtSecret,
      BB_POSTGRES_PASSWORD: postgresPassword,
      BB_ENCRYPTION_KEY: encryptionKey,
      BB_NATS_PASSWORD: secrets.nats.burnbox,
      BB_REDIS_PASSWORD: secrets.redis,
    },
    { skip: ownBrokers ? ["Redis", "NATS"] : [] },
  );
} catch (err) {
  // a first run on a bare machine ends with what to do, not a stack trace
  process.stderr.write(`[burnbox] ${err instanceof MissingDependencies ? err.message.replaceAll("\n", "\n[burnbox] ") : err.message}\n`);
  process.exit(1);
}
/** The web console the gateway serves at /: built (vite) when missing or older than its sources. */
async function prepareConsole() {
  try {
    if (await buildConsole()) say("built the web console (packages/console)");
    return { BB_CONSOLE_DIR: env.BB_CONSOLE_DIR ?? CONSOLE_DIST };
  } catch (err) {
    say(`${err.message}: the console is not served, / answers 404`);
    return {};
  }
}
const consoleEnv = await prepareConsole();
// the spam score (extensions section 9): a private rspamd when Debian's is installed and none is
// configured, on its own port and state directory; started in the background (its first start
// compiles its regular expressions for a minute or so: mail meanwhile is stored `unavailable`)
const rspamdDir = path.join(ROOT, ".data", "rspamd");
const rspamdUrl = env.BB_SPAM_RSPAMD_URL ?? (rspamdInstalled() ? `http://127.0.0.1:${env.BB_RSPAMD_PORT ?? "11433"}` : undefined);
if (!env.BB_SPAM_RSPAMD_URL && rspamdUrl) {
  startRspamd({ port: Number(new URL(rspamdUrl).port), dir: rspamdDir }).then(
    () => say(`rspamd scoring mail on ${rspamdUrl}`),
    (err) => say(`rspamd did not start (${err.message}); mail is stored with spam: unavailable`),
  );
}
const firstRunToken = setupToken(ROOT, env);
const shared = {
  ...env,
  ...consoleEnv,
  // the setup page's token, printed in the summary as a link while setup is incomplete
  BB_SETUP_TOKEN: firstRunToken,
  // one Postgres server; each service uses its own database on it (burnbox_identity, ...). The
  // password is the compose stack's; a local server with trust authentication ignores it.
  DATABASE_URL: env.DATABASE_URL ?? `postgresql://postgres:${postgresPassword}@127.0.0.1:5432/postgres`,
  BB_INTERNAL_SECRET: internalSecret,
  BB_AUTH_JWT_SECRET: jwtSecret,
  BB_ENCRYPTION_KEY: encryptionKey,
  BB_DOMAINS_TRUSTED: env.BB_DOMAINS_TRUSTED ?? "burnbox.test",
  BB_SMTP_PORT: smtpPort,
  ...(rspamdUrl ? { BB_SPAM_RSPAMD_URL: rspamdUrl } : {}),
  BB_STORAGE_LOCAL_PATH: env.BB_STORAGE_LOCAL_PATH ?? path.join(ROOT, ".data", "storage"),
  BB_LOG_LEVEL: env.BB_LOG_LEVEL ?? "info",
  // no load balancer to leave on Ctrl-C: stop at once (production waits shutdown.drain_delay)
  BB_SHUTDOWN_DRAIN_DELAY: env.BB_SHUTDOWN_DRAIN_DELAY ?? "0s",
};

/**
 * Each process's NATS and Redis settings: npm start's own brokers (a NATS user per service), or the
 * servers found on the usual ports, with the compose stack's credentials when they ask for some.
 * `open` names a server found that takes clients without credentials (said in the summary).
 */
async function brokerSettings() {
  if (ownBrokers) {
    const brokers = await startBrokers({
      dataDir: path.join(ROOT, ".data"),
      passwords: secrets,
      onExit: (name, how) => {
        say(`${name} stopped (${how}); stopping everything`);
        void shutdown(1);
      },
    });
    return { envOf: brokers.envOf, stop: brokers.stop, open: [] };
  }
  const open = [];
  const fixed = {};
  if (!env.NATS_URL) {
    const auth = await serverAuth("nats", "127.0.0.1", 4222);
    if (auth)
      Object.assign(fixed, { BB_NATS_USER: env.BB_NATS_USER ?? "burnbox", BB_NATS_PASSWORD: env.BB_NATS_PASSWORD ?? secrets.nats.burnbox });
    else if (auth === false) open.push("NATS at 127.0.0.1:4222");
  }
  if (!env.REDIS_URL) {
    const auth = await serverAuth("redis", "127.0.0.1", 6379);
    if (auth) fixed.REDIS_URL = `redis://:${encodeURIComponent(env.BB_REDIS_PASSWORD ?? secrets.redis)}@127.0.0.1:6379`;
    else if (auth === false) open.push("Redis at 127.0.0.1:6379");
  }
  return { envOf: () => fixed, stop: () => {}, open };
}

const children = new Map();
let stopping = false;
let brokers = { envOf: () => ({}), stop: () => {}, open: [] };
const width = Math.max(...PROCESSES.map((p) => p.name.length));

function launch(p) {
  const child = spawn(process.execPath, ["--import", "tsx", p.entry], {
    cwd: path.join(ROOT, "services", p.dir),
    env: { ...shared, ...brokers.envOf(p.name), BB_HTTP_PORT: p.port },
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
  brokers.stop();
  if (!env.BB_SPAM_RSPAMD_URL) await stopRspamd(rspamdDir).catch(() => undefined);
  process.exit(code);
}
process.on("SIGINT", () => void shutdown(0));
process.on("SIGTERM", () => void shutdown(0));

try {
  brokers = await brokerSettings();
  const downstream = PROCESSES.filter((p) => p.name !== "api-gateway");
  await Promise.all(downstream.map((p) => waitReady(p.port, p.name, launch(p))));
  const gw = PROCESSES.find((p) => p.name === "api-gateway");
  await waitReady(gw.port, gw.name, launch(gw));
} catch (err) {
  say(err.message);
  await shutdown(1);
}

const summary = summaryLines({
  gatewayPort,
  smtpPort,
  trustedDomains: shared.BB_DOMAINS_TRUSTED,
  setupToken: firstRunToken,
  setupComplete: await setupCompleted(gatewayPort),
});
for (const line of summary) say(line);
for (const server of brokers.open)
  say(`  Note: ${server} accepts clients without credentials; anyone who reaches it can forge events (README, section Deploy)`);
