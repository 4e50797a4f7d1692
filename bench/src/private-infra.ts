/**
 * Servers a fault benchmark owns, so that stopping them disturbs nothing else on the machine: a
 * PostgreSQL 15 cluster of its own (initdb into a temporary folder, on a port of its own) behind a
 * TCP proxy the benchmark can close, a Redis, and NATS (one server, or a 3-node JetStream cluster).
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, connect, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "pg";
import { waitFor } from "@burnbox/test-kit";
import { System, type SystemEnv } from "@burnbox/tests-e2e";

const PG_BIN = process.env.BENCH_PG_BIN ?? "/usr/lib/postgresql/15/bin";
/** The fault benchmarks' settings: no waiting for the disk (what they measure is the services' recovery). */
const FAST = "-c fsync=off -c synchronous_commit=off -c full_page_writes=off";

/** A server binary the script owns: started, killed with SIGKILL, started again on the same port and data. */
export class Owned {
  private child: ChildProcess | null = null;
  constructor(
    private readonly bin: string,
    private readonly args: string[],
  ) {}

  start(): void {
    this.child = spawn(this.bin, this.args, { stdio: "ignore" });
  }

  async kill(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGKILL");
    await exited;
  }

  async restart(): Promise<void> {
    await this.kill();
    this.start();
  }

  stop(): void {
    this.child?.kill("SIGKILL");
  }
}

/** Runs a PostgreSQL tool as the postgres user when this script is root (initdb refuses root). */
function pgTool(tool: string, args: string[]): string {
  const bin = path.join(PG_BIN, tool);
  const asRoot = process.getuid?.() === 0;
  return execFileSync(asRoot ? "runuser" : bin, asRoot ? ["-u", "postgres", "--", bin, ...args] : args, {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/**
 * A private PostgreSQL 15 cluster (trust auth, loopback only) and a proxy in front of it. Services
 * are pointed at the proxy: `refuse(ms)` closes it (every connection dropped, new ones refused)
 * for a while; `restart()` restarts the cluster itself (pg_ctl -m fast); `freeze(ms)` stops every
 * process of the cluster (SIGSTOP) with its connections left open, as a frozen host would.
 * BENCH_PG_OPTS adds server options (e.g. "-c log_min_duration_statement=100 -c log_autovacuum_min_duration=0").
 */
export class PrivatePostgres {
  private proxy: Server | null = null;
  private readonly sockets = new Set<Socket>();

  private constructor(
    readonly dir: string,
    readonly port: number,
    readonly proxyPort: number,
    private readonly speed: string = FAST,
    private readonly options: string = "",
  ) {}

  /** The postmaster's pid: it and its children are the cluster's processes. */
  get postmasterPid(): number {
    return Number(readFileSync(path.join(this.dir, "data", "postmaster.pid"), "utf8").split("\n")[0]);
  }

  /**
   * `durable`: the server's own defaults for fsync, synchronous_commit and full-page writes (as the
   * machine's shared server runs), not the fault benchmarks' fast settings; `options`: more server
   * options (e.g. "-c shared_preload_libraries=pg_stat_statements").
   */
  static async start(port: number, proxyPort: number, opts: { durable?: boolean; options?: string } = {}): Promise<PrivatePostgres> {
    const dir = mkdtempSync(path.join(tmpdir(), "bb-pg-"));
    chmodSync(dir, 0o777);
    const data = path.join(dir, "data");
    pgTool("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"]);
    const pg = new PrivatePostgres(dir, port, proxyPort, opts.durable ? "" : FAST, opts.options ?? "");
    pg.ctl("start");
    pg.listen();
    return pg;
  }

  /** The URL services use (through the proxy), like the shared server's: postgres user, trust. */
  get url(): string {
    return `postgresql://postgres@127.0.0.1:${this.proxyPort}/postgres`;
  }

  /** A URL straight to the cluster (the benchmark's own admin connections, not cut by `refuse`). */
  directUrl(db = "postgres"): string {
    return `postgresql://postgres@127.0.0.1:${this.port}/${db}`;
  }

  private ctl(action: "start" | "stop" | "restart"): void {
    const opts = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c max_connections=200 ${this.speed} ${this.options} ${process.env.BENCH_PG_OPTS ?? ""}`;
    pgTool("pg_ctl", ["-D", path.join(this.dir, "data"), "-l", path.join(this.dir, "log"), "-w", "-m", "fast", "-o", opts, action]);
  }

  /** Restarts the cluster (fast shutdown: open transactions are rolled back, connections cut). */
  restart(): void {
    this.ctl("restart");
  }

  private listen(): void {
    const server = createServer((client) => {
      const upstream = connect(this.port, "127.0.0.1");
      this.sockets.add(client);
      this.sockets.add(upstream);
      const close = () => {
        client.destroy();
        upstream.destroy();
        this.sockets.delete(client);
        this.sockets.delete(upstream);
      };
      client.on("error", close).on("close", close);
      upstream.on("error", close).on("close", close);
      client.pipe(upstream);
      upstream.pipe(client);
    });
    server.listen(this.proxyPort, "127.0.0.1");
    this.proxy = server;
  }

  /** PostgreSQL unreachable for `ms`: every connection through the proxy cut, new ones refused. */
  async refuse(ms: number): Promise<void> {
    const server = this.proxy;
    this.proxy = null;
    await new Promise<void>((r) => {
      server?.close(() => r());
      for (const s of this.sockets) s.destroy();
      this.sockets.clear();
    });
    await new Promise((r) => setTimeout(r, ms));
    this.listen();
  }

  /**
   * PostgreSQL stops answering for `ms` without dropping anything: the postmaster and every backend
   * stopped (SIGSTOP), then continued. Open connections stay up and go silent, new ones are
   * accepted by the kernel and never answered: what a frozen host or VM looks like to its clients.
   */
  async freeze(ms: number): Promise<void> {
    const postmaster = this.postmasterPid;
    const children = execFileSync("pgrep", ["-P", String(postmaster)], { encoding: "utf8" })
      .split("\n")
      .filter(Boolean)
      .map(Number);
    const all = [postmaster, ...children];
    for (const pid of all) process.kill(pid, "SIGSTOP");
    try {
      await new Promise((r) => setTimeout(r, ms));
    } finally {
      for (const pid of all) process.kill(pid, "SIGCONT");
    }
  }

  /**
   * Every connection of the service pools busy for `ms`: the emails table of `db` locked, so each
   * statement on it waits and holds its connection, and the pools fill up behind them.
   */
  async lockEmails(db: string, ms: number): Promise<void> {
    const c = new Client({ connectionString: this.directUrl(db) });
    await c.connect();
    try {
      await c.query("BEGIN");
      await c.query("LOCK TABLE emails IN ACCESS EXCLUSIVE MODE");
      await new Promise((r) => setTimeout(r, ms));
      await c.query("ROLLBACK");
    } finally {
      await c.end();
    }
  }

  stop(): void {
    this.proxy?.close();
    for (const s of this.sockets) s.destroy();
    try {
      this.ctl("stop");
    } catch {
      // already stopped
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A NATS server with JetStream (monitoring on `monitorPort`), or one member of a 3-node cluster. */
export function natsServer(
  port: number,
  monitorPort: number,
  opts: { cluster?: { name: string; port: number; routes: number[] } } = {},
): Owned {
  const args = [
    "-a",
    "127.0.0.1",
    "-p",
    String(port),
    "-m",
    String(monitorPort),
    "-js",
    "-sd",
    mkdtempSync(path.join(tmpdir(), "bb-nats-")),
  ];
  if (opts.cluster) {
    args.push(
      "-n",
      opts.cluster.name,
      "--cluster_name",
      "bb-bench",
      "--cluster",
      `nats://127.0.0.1:${opts.cluster.port}`,
      "--routes",
      opts.cluster.routes.map((p) => `nats://127.0.0.1:${p}`).join(","),
    );
  }
  return new Owned("nats-server", args);
}

/** Waits until the NATS server monitored at `monitorPort` reports itself healthy (JetStream included). */
export async function natsReady(monitorPort: number): Promise<void> {
  await waitFor(
    async () => {
      const res = await fetch(`http://127.0.0.1:${monitorPort}/healthz`).catch(() => null);
      return res?.status === 200;
    },
    { what: `NATS monitored at ${monitorPort}`, timeoutMs: 60_000, intervalMs: 250 },
  );
}

/** How many client connections the NATS server monitored at `monitorPort` holds (its /connz). */
export async function natsConnections(monitorPort: number): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${monitorPort}/connz`);
  return ((await res.json()) as { num_connections: number }).num_connections;
}

/** The JetStream streams a cluster member reports (its /jsz), with their leader and how many replicas each has. */
export async function natsStreams(monitorPort: number): Promise<Array<{ name: string; leader: string; replicas: number }>> {
  const res = await fetch(`http://127.0.0.1:${monitorPort}/jsz?streams=true`);
  const body = (await res.json()) as {
    account_details?: Array<{ stream_detail?: Array<{ name: string; cluster?: { leader?: string; replicas?: unknown[] } }> }>;
  };
  return (body.account_details ?? []).flatMap((a) =>
    (a.stream_detail ?? []).map((st) => ({
      name: st.name,
      leader: st.cluster?.leader ?? "?",
      replicas: 1 + (st.cluster?.replicas?.length ?? 0),
    })),
  );
}

export function redisServer(port: number): Owned {
  return new Owned("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]);
}

/**
 * System.start, tried up to three times: on this shared 2-core machine (load averages of 40-50
 * while other helpers run their suites) a process sometimes misses the harness's 90 s readiness
 * deadline; each failed try's databases are dropped by the harness.
 */
export async function startSystem(env: SystemEnv, opts: { replicas?: 1 | 2 } = {}): Promise<System> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await System.start(env, opts);
    } catch (err) {
      if (attempt >= 3) throw err;
      process.stdout.write(`  system start failed (try ${attempt}): ${String(err).split("\n")[0]}; trying again\n`);
    }
  }
}
