// npm start's own NATS and Redis (deploy/local/brokers.mjs) take no client without credentials:
// started here as npm start starts them, then spoken to in their own protocols. Needs
// nats-server and redis-server (Debian's packages, as on CI machines).
//
//   node deploy/local/brokers.test.mjs     prints `N passed, N failed`
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { NATS_USERS, startBrokers } from "./brokers.mjs";

let passed = 0;
let failed = 0;
const check = (ok, what) => {
  if (ok) passed++;
  else failed++;
  process.stdout.write(`[brokers] ${ok ? "ok  " : "FAIL"} ${what}\n`);
};

/** Sends `lines` on a fresh connection and returns what came back once `done` matches it. */
function talk(url, lines, done) {
  const u = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(u.port), u.hostname, () => socket.write(lines));
    let text = "";
    const end = () => {
      socket.destroy();
      resolve(text);
    };
    socket.setTimeout(3000, end);
    socket.on("data", (c) => {
      text += c.toString("utf8");
      if (done.test(text)) end();
    });
    socket.on("error", end);
  });
}
const natsConnect = (url, user, pass) =>
  talk(url, `CONNECT ${JSON.stringify({ verbose: false, ...(user ? { user, pass } : {}) })}\r\nPING\r\n`, /PONG|-ERR/);

const dataDir = mkdtempSync(path.join(tmpdir(), "bb-brokers-"));
const passwords = { nats: Object.fromEntries(NATS_USERS.map((u) => [u, `pw-${u}`])), redis: "redis-pw" };
const brokers = await startBrokers({ dataDir, passwords });
try {
  const inbox = brokers.envOf("inbox-smtp");
  check(
    inbox.BB_NATS_USER === "inbox" && inbox.BB_NATS_PASSWORD === "pw-inbox",
    "when the SMTP intake starts, then it connects as the inbox service's user",
  );
  check(
    /-ERR 'Authorization Violation'/.test(await natsConnect(brokers.natsUrl)),
    "when a client gives no NATS credentials, then NATS refuses it",
  );
  check(
    /-ERR/.test(await natsConnect(brokers.natsUrl, "tenancy", "pw-inbox")),
    "when a service gives another service's password, then NATS refuses it",
  );
  const each = await Promise.all(NATS_USERS.map((u) => natsConnect(brokers.natsUrl, u, passwords.nats[u])));
  check(
    each.every((t) => t.includes("PONG")),
    "when each service gives its own user and password, then NATS takes it",
  );
  const redisUrl = new URL(brokers.redisUrl);
  check(/^-NOAUTH/m.test(await talk(brokers.redisUrl, "PING\r\n", /\r\n/)), "when a client gives no Redis password, then Redis refuses it");
  check(
    /\+OK\r\n\+PONG/.test(await talk(brokers.redisUrl, `AUTH ${decodeURIComponent(redisUrl.password)}\r\nPING\r\n`, /PONG|-ERR/)),
    "when REDIS_URL's password is given, then Redis takes it",
  );
} finally {
  brokers.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
process.stdout.write(`${passed} passed, ${failed} failed\n`);
process.exit(failed === 0 ? 0 : 1);
