import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { waitFor } from "@burnbox/test-kit";
import { createRedis, Redis, redisReady } from "../src/data";
import { freePort, started } from "./fixtures/local-servers";

/**
 * Redis behind Sentinel, for real: Debian's redis-server as a master, a replica and a sentinel
 * (`redis-server <conf> --sentinel`) on free loopback ports, and the kit's client given a
 * `redis+sentinel://` URL. A forced failover moves the master; the client follows it.
 */
const MASTER = "bbmaster";
const PASSWORD = "data-pass";

describe("Redis behind Sentinel (redis+sentinel://)", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "bb-redis-sentinel-"));
  const children: ChildProcess[] = [];
  const clients: Redis[] = [];
  let ports: { master: number; replica: number; sentinel: number };
  let admin: Redis;

  beforeAll(async () => {
    const [master, replica, sentinel] = [await freePort(), await freePort(), await freePort()] as [number, number, number];
    ports = { master, replica, sentinel };
    const server = (port: number, more: string[] = []) =>
      spawn(
        "redis-server",
        [
          "--port",
          String(port),
          "--bind",
          "127.0.0.1",
          // the replica's first sync writes a snapshot: into the scratch directory, not the package's
          "--dir",
          dir,
          "--save",
          "",
          "--appendonly",
          "no",
          "--requirepass",
          PASSWORD,
          "--masterauth",
          PASSWORD,
          ...more,
        ],
        { stdio: ["ignore", "pipe", "pipe"] },
      );
    // the sentinel rewrites its configuration file: one of its own in the scratch directory
    const conf = path.join(dir, "sentinel.conf");
    writeFileSync(
      conf,
      [
        `port ${sentinel}`,
        "bind 127.0.0.1",
        `dir ${dir}`,
        `sentinel monitor ${MASTER} 127.0.0.1 ${master} 1`,
        `sentinel auth-pass ${MASTER} ${PASSWORD}`,
        `sentinel down-after-milliseconds ${MASTER} 1000`,
        `sentinel failover-timeout ${MASTER} 10000`,
        "",
      ].join("\n"),
    );
    const processes = [
      server(master),
      server(replica, ["--replicaof", "127.0.0.1", String(master)]),
      spawn("redis-server", [conf, "--sentinel"]),
    ];
    children.push(...processes);
    await Promise.all([
      started(processes[0]!, /Ready to accept connections/),
      started(processes[1]!, /Ready to accept connections/),
      started(processes[2]!, /Sentinel ID is/),
    ]);
    admin = new Redis({ host: "127.0.0.1", port: sentinel, lazyConnect: false });
    clients.push(admin);
  }, 30_000);

  afterAll(async () => {
    // each client ends for good (its sentinel loop stopped) before the servers go
    await Promise.all(
      clients.map((c) => {
        const ended = c.status === "end" ? Promise.resolve() : new Promise((resolve) => c.once("end", resolve));
        c.disconnect();
        return ended;
      }),
    );
    await Promise.all(
      children.map((c) => {
        const exited = new Promise((resolve) => c.once("exit", resolve));
        c.kill("SIGTERM");
        return exited.then(() => {
          c.stdout?.destroy();
          c.stderr?.destroy();
        });
      }),
    );
    rmSync(dir, { recursive: true, force: true });
  });

  it("when redis.url names the sentinel and the master, then the client reaches the master; after a failover it writes to the new one", async () => {
    const redis = createRedis(`redis+sentinel://:${PASSWORD}@127.0.0.1:${ports.sentinel}/${MASTER}`);
    clients.push(redis);
    await redisReady(redis);
    expect(redis.stream.remotePort).toBe(ports.master);
    await redis.set("bb:sentinel:before", "1");
    expect(await redis.get("bb:sentinel:before")).toBe("1");

    // the sentinel must know the replica, in sync, before it can promote it
    await waitFor(
      async () => {
        const replicas = (await admin.call("SENTINEL", "REPLICAS", MASTER)) as string[][];
        return replicas.some(
          (fields) =>
            fields.join(" ").includes(`port ${ports.replica}`) &&
            fields.includes("master-link-status") &&
            fields[fields.indexOf("master-link-status") + 1] === "ok",
        );
      },
      { timeoutMs: 20_000, intervalMs: 100, what: "the sentinel to see the replica in sync" },
    );
    expect(await admin.call("SENTINEL", "FAILOVER", MASTER)).toBe("OK");

    // the client follows the sentinel's announcement to the promoted replica; writes fail fast meanwhile
    await waitFor(
      async () => {
        try {
          await redis.set("bb:sentinel:after", "2");
          return redis.stream.remotePort === ports.replica;
        } catch {
          return false;
        }
      },
      { timeoutMs: 20_000, intervalMs: 100, what: "a write on the new master" },
    );
    expect(await redis.get("bb:sentinel:before")).toBe("1");
    expect(await redis.get("bb:sentinel:after")).toBe("2");
    const [role] = (await redis.call("ROLE")) as [string];
    expect(role).toBe("master");
  }, 60_000);

  it("when the master's name is not one the sentinels monitor, then the client never connects and says so", async () => {
    const redis = createRedis(`redis+sentinel://:${PASSWORD}@127.0.0.1:${ports.sentinel}/nosuchmaster`);
    clients.push(redis);
    await expect(redisReady(redis, 1500)).rejects.toThrow("redis not ready");
    await expect(redis.ping()).rejects.toThrow();
  });
});
