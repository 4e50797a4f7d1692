import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { connectNats } from "../src/messaging";
import { createRedis, redisReady } from "../src/data";
import { freePort, started } from "./fixtures/local-servers";

/**
 * NATS and Redis that ask for credentials, as compose, the manifests and `npm start` run them:
 * real servers (Debian's nats-server and redis-server) on free loopback ports, started here.
 */
describe("NATS and Redis with credentials", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "bb-broker-auth-"));
  const children: ChildProcess[] = [];
  let natsUrl: string;
  let redisPort: number;

  beforeAll(async () => {
    const natsPort = await freePort();
    redisPort = await freePort();
    const conf = path.join(dir, "nats.conf");
    writeFileSync(
      conf,
      `listen: "127.0.0.1:${natsPort}"\njetstream { store_dir: "${dir}" }\n` +
        `authorization { users: [ { user: inbox, password: "inbox-pass" }, { user: tenancy, password: "tenancy-pass" } ] }\n`,
    );
    const nats = spawn("nats-server", ["-c", conf]);
    const redis = spawn("redis-server", ["--port", String(redisPort), "--bind", "127.0.0.1", "--save", "", "--requirepass", "redis-pass"]);
    children.push(nats, redis);
    await Promise.all([started(nats, /Server is ready/), started(redis, /Ready to accept connections/)]);
    natsUrl = `nats://127.0.0.1:${natsPort}`;
  });
  afterAll(() => {
    for (const c of children) c.kill("SIGTERM");
    rmSync(dir, { recursive: true, force: true });
  });

  it("when a service gives its nats.user and nats.password, then it connects and JetStream answers", async () => {
    const nc = await connectNats(natsUrl, "kit-auth-test", undefined, { user: "inbox", password: "inbox-pass" });
    try {
      const reply = await nc.request("$JS.API.INFO", "", { timeout: 2000 });
      expect(JSON.parse(reply.string())).toMatchObject({ type: "io.nats.jetstream.api.v1.account_info_response" });
    } finally {
      await nc.close();
    }
  });

  it("when the credentials are in the URL (user:password@), then they are sent and the host is still found", async () => {
    const nc = await connectNats(natsUrl.replace("nats://", "nats://tenancy:tenancy-pass@"), "kit-auth-url-test");
    await nc.flush();
    await nc.close();
  });

  it("when a client gives no credentials or another user's password, then NATS refuses it", async () => {
    await expect(connectNats(natsUrl, "kit-anon-test")).rejects.toThrow(/Authorization/i);
    await expect(connectNats(natsUrl, "kit-wrong-test", undefined, { user: "inbox", password: "tenancy-pass" })).rejects.toThrow(
      /Authorization/i,
    );
  });

  it("when REDIS_URL carries the password, then commands run; without it Redis answers NOAUTH", async () => {
    const withPassword = createRedis(`redis://:redis-pass@127.0.0.1:${redisPort}`);
    try {
      await redisReady(withPassword);
      await withPassword.set("bb:auth-test", "1");
      expect(await withPassword.get("bb:auth-test")).toBe("1");
    } finally {
      withPassword.disconnect();
    }
    // a client without the password, speaking the protocol itself
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(redisPort, "127.0.0.1", () => socket.write("GET bb:auth-test\r\n"));
      socket.once("data", (chunk) => {
        socket.destroy();
        resolve(chunk.toString("utf8"));
      });
      socket.once("error", reject);
    });
    expect(answer).toMatch(/^-NOAUTH/);
  });
});
