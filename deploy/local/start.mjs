// `npm start`: the whole system in the foreground. Brings up Postgres, Redis and NATS when they
// are not running, installs dependencies, generates Prisma clients, then starts every service
// and the SMTP intake (each creates and migrates its own database) and prints where to go.
// Ctrl-C stops everything.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ROOT, prepare, say } from "./lib.mjs";

const env = process.env;
const gatewayPort = env.BB_HTTP_PORT ?? "8080";
const smtpPort = env.BB_SMTP_PORT ?? "2525";

/** Development secrets, made once per checkout and kept out of git (.data/). */
function devSecrets() {
  const file = path.join(ROOT, ".data", "dev-secrets.json");
  if (existsSync(file)) return JSON.parse(readFileSync(file, "utf8"));
  mkdirSync(path.dirname(file), { recursive: true });
  const secrets = { internal: randomBytes(32).toString("hex"), jwt: randomBytes(32).toString("hex") };
  writeFileSync(file, JSON.stringify(secrets), { mode: 0o600 });
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

await prepare();
const secrets = devSecrets();
const shared = {
  ...env,
  BB_INTERNAL_SECRET: env.BB_INTERNAL_SECRET ?? secrets.internal,
  BB_AUTH_JWT_SECRET: env.BB_AUTH_JWT_SECRET ?? secrets.jwt,
  BB_DOMAINS_TRUSTED: env.BB_DOMAINS_TRUSTED ?? "burnbox.test",
  BB_SMTP_PORT: smtpPort,
  BB_STORAGE_LOCAL_PATH: env.BB_STORAGE_LOCAL_PATH ?? path.join(ROOT, ".data", "storage"),
  BB_LOG_LEVEL: env.BB_LOG_LEVEL ?? "info",
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
