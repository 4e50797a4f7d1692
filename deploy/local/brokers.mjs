// NATS and Redis for `npm start`, never without credentials. Where nats-server and redis-server are
// installed, `npm start` runs its own of each on free loopback ports, as its children (they stop
// with it): NATS with JetStream (kept in .data/nats) and one user per service, each with its own
// password; Redis with a password (it holds only what may be lost). The passwords are made once per
// checkout, in .data/dev-secrets.json with the other development secrets.
//
// Where they are not installed, `npm start` uses what answers on the usual ports (or starts the
// compose stack's, which has credentials too) and `serverAuth` says whether that server asks for
// credentials, so a server left open is named in the summary.
import { spawn } from "node:child_process";
import { mkdirSync, openSync, writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";

/** The NATS users of `npm start`: one per service; the SMTP intake connects as the inbox service. */
export const NATS_USERS = ["identity", "tenancy", "inbox", "webhook-dispatcher", "realtime-gateway", "api-gateway"];

/** The NATS user a process connects as. */
export const natsUserOf = (processName) => (processName === "inbox-smtp" ? "inbox" : processName);

/** nats-server's configuration: loopback only, JetStream, and the users with their passwords. */
export function natsConfig({ port, storeDir, passwords }) {
  const users = NATS_USERS.map((u) => `    { user: ${JSON.stringify(u)}, password: ${JSON.stringify(passwords[u])} }`).join("\n");
  return [
    "# written by npm start (deploy/local/brokers.mjs) on each run",
    `listen: "127.0.0.1:${port}"`,
    `jetstream { store_dir: ${JSON.stringify(storeDir)} }`,
    "authorization {",
    "  users: [",
    users,
    "  ]",
    "}",
    "",
  ].join("\n");
}

/** A free loopback port (bound, then released). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** The first line a server sends, or what it answers to `probe`. */
function firstLine(host, port, probe) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    let data = "";
    const done = (line) => {
      socket.destroy();
      resolve(line);
    };
    socket.setTimeout(2000, () => done(null));
    socket.once("error", () => done(null));
    socket.once("connect", () => probe && socket.write(probe));
    socket.on("data", (chunk) => {
      data += chunk.toString("utf8");
      const end = data.indexOf("\n");
      if (end >= 0) done(data.slice(0, end).trim());
    });
  });
}

/**
 * Whether the server at host:port asks for credentials: NATS says so in its INFO line
 * (`auth_required`), Redis answers PING with NOAUTH. `null` when nothing answers.
 */
export async function serverAuth(kind, host, port) {
  if (kind === "nats") {
    const line = await firstLine(host, port);
    if (!line?.startsWith("INFO ")) return null;
    try {
      return JSON.parse(line.slice(5)).auth_required === true;
    } catch {
      return null;
    }
  }
  const line = await firstLine(host, port, "PING\r\n");
  if (line === null) return null;
  return line.startsWith("-NOAUTH");
}

async function until(check, seconds, what) {
  for (let i = 0; i < seconds * 10; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not start within ${seconds} s`);
}

/**
 * Starts nats-server and redis-server with credentials on free loopback ports, as children of
 * this process. `passwords`: `{ nats: {user: password}, redis }`. Returns their URLs, the env of
 * each process (its NATS user and password, the Redis URL with the password) and `stop()`.
 */
export async function startBrokers({ dataDir, passwords, bins = { nats: "nats-server", redis: "redis-server" }, onExit }) {
  const [natsPort, redisPort] = [await freePort(), await freePort()];
  mkdirSync(path.join(dataDir, "nats"), { recursive: true });
  const conf = path.join(dataDir, "nats.conf");
  writeFileSync(conf, natsConfig({ port: natsPort, storeDir: path.join(dataDir, "nats"), passwords: passwords.nats }), { mode: 0o600 });
  // their logs go to .data/*.log: npm start's own output stays the services'
  const log = (name) => openSync(path.join(dataDir, `${name}.log`), "a");
  const children = [
    spawn(bins.nats, ["-c", conf], { stdio: ["ignore", log("nats-server"), log("nats-server")] }),
    // the password on the command line is visible to this machine's own users only (ps); the
    // server is bound to loopback, so no one else can reach it
    spawn(
      bins.redis,
      ["--port", String(redisPort), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--requirepass", passwords.redis],
      {
        stdio: ["ignore", log("redis-server"), log("redis-server")],
      },
    ),
  ];
  let stopping = false;
  for (const child of children) child.on("exit", (code, signal) => !stopping && onExit?.(path.basename(child.spawnfile), code ?? signal));
  const stop = () => {
    stopping = true;
    for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
  };
  try {
    await until(async () => (await serverAuth("nats", "127.0.0.1", natsPort)) === true, 20, "nats-server");
    await until(async () => (await serverAuth("redis", "127.0.0.1", redisPort)) === true, 20, "redis-server");
  } catch (err) {
    stop();
    throw err;
  }
  const natsUrl = `nats://127.0.0.1:${natsPort}`;
  const redisUrl = `redis://:${encodeURIComponent(passwords.redis)}@127.0.0.1:${redisPort}`;
  return {
    natsUrl,
    redisUrl,
    envOf: (processName) => ({
      NATS_URL: natsUrl,
      BB_NATS_USER: natsUserOf(processName),
      BB_NATS_PASSWORD: passwords.nats[natsUserOf(processName)],
      REDIS_URL: redisUrl,
    }),
    stop,
  };
}
