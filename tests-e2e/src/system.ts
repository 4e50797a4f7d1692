import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, type WriteStream } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { Client } from "pg";
import type { NatsConnection } from "@nats-io/nats-core";
import { connect } from "@nats-io/transport-node";
import {
  deleteNamespaceStreams,
  testDatabaseUrl,
  testInfra,
  uniqueNamespace,
  waitFor,
  TEST_INTERNAL_SECRET,
  TEST_JWT_SECRET,
} from "@burnbox/test-kit";

const ROOT = path.resolve(__dirname, "..", "..");

/** Every process of the system; the SMTP intake and the IMAP/POP3 mailbox are the inbox service's second and third entrypoints. */
export const PROCESSES = [
  "identity",
  "tenancy",
  "inbox",
  "inbox-smtp",
  "inbox-mailbox",
  "webhook-dispatcher",
  "realtime-gateway",
  "renderer",
  "api-gateway",
] as const;
export type ProcessName = (typeof PROCESSES)[number];

/** The services with a database, and the processes that use each (the SMTP intake and the mailbox share the inbox's). */
export const DATABASE_USERS = {
  identity: ["identity"],
  tenancy: ["tenancy"],
  inbox: ["inbox", "inbox-smtp", "inbox-mailbox"],
  "webhook-dispatcher": ["webhook-dispatcher"],
  "realtime-gateway": ["realtime-gateway"],
} as const satisfies Record<string, readonly ProcessName[]>;
export type DatabaseService = keyof typeof DATABASE_USERS;
export const DB_SERVICES = Object.keys(DATABASE_USERS) as DatabaseService[];

interface Running {
  child: ChildProcess;
  exited: Promise<number | null>;
}

/**
 * `n` distinct free ports. All the probe sockets are open at once before any is closed, so the
 * kernel cannot hand out the same port twice (one-at-a-time probing could, and two processes
 * then raced for one port while the loser's readiness check was answered by the winner).
 */
export async function freePorts(n: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: n },
      () =>
        new Promise<ReturnType<typeof createServer>>((resolve, reject) => {
          const srv = createServer();
          srv.once("error", reject);
          srv.listen(0, "127.0.0.1", () => resolve(srv));
        }),
    ),
  );
  const ports = servers.map((srv) => (srv.address() as { port: number }).port);
  await Promise.all(servers.map((srv) => new Promise<void>((resolve) => srv.close(() => resolve()))));
  return ports;
}

export const TRUSTED_DOMAIN = "e2e.burnbox.test";

export type SystemEnv = Partial<Record<ProcessName | "all", Record<string, string>>>;

/** The ports of one set of processes: each process's HTTP port, and the mail ports (SMTP intake, IMAP and POP3 of the mailbox, the tests' DNS). */
export type Ports = Record<ProcessName, number> & { smtp: number; dns: number; imap: number; pop3: number };

/** The ports of a set besides each process's HTTP port (SMTP, IMAP, POP3; the DNS port is the run's one). */
const MAIL_PORTS = 3;

/** The processes the gateway forwards to, each with its `services.<name>_url` variable. */
const UPSTREAM_ENV = {
  identity: "BB_SERVICES_IDENTITY_URL",
  tenancy: "BB_SERVICES_TENANCY_URL",
  inbox: "BB_SERVICES_INBOX_URL",
  "webhook-dispatcher": "BB_SERVICES_WEBHOOK_DISPATCHER_URL",
  "realtime-gateway": "BB_SERVICES_REALTIME_GATEWAY_URL",
} as const satisfies Partial<Record<ProcessName, string>>;

/** A set's ports from freePorts' answer: its SMTP, IMAP and POP3 ports, then one per process. */
function portsOf(free: number[], dns: number): Ports {
  const [smtp, imap, pop3, ...processPorts] = free as [number, number, number, ...number[]];
  const ports = { smtp, dns, imap, pop3 } as Ports;
  PROCESSES.forEach((p, i) => (ports[p] = processPorts[i] as number));
  return ports;
}

/** The `services.<name>_url` values naming every set's process of each upstream (comma-separated). */
function upstreamLists(sets: Ports[]): Record<string, string> {
  return Object.fromEntries(
    Object.entries(UPSTREAM_ENV).map(([p, env]) => [env, sets.map((ports) => `http://127.0.0.1:${ports[p as ProcessName]}`).join(",")]),
  );
}

/** The inbox service's other entrypoints, each its own process. */
const ENTRIES: Partial<Record<ProcessName, string>> = { "inbox-smtp": "dist/smtp-main.js", "inbox-mailbox": "dist/mailbox-main.js" };

/** The service (its directory, its database) a process belongs to. */
function serviceOf(name: ProcessName): string {
  return name in ENTRIES ? "inbox" : name;
}

/**
 * The compiled entry point of a process (deploy/local/build.mjs writes it; `npm test` builds first),
 * in this tree or in `root`, another built tree (the previous release's, upgrade.e2e.spec.ts).
 */
function entryOf(name: ProcessName, root = ROOT): { cwd: string; entry: string } {
  const cwd = path.join(root, "services", serviceOf(name));
  const entry = ENTRIES[name] ?? "dist/main.js";
  if (!existsSync(path.join(cwd, entry)))
    throw new Error(`${path.relative(ROOT, path.join(cwd, entry))} is missing: run \`pnpm build\` first`);
  return { cwd, entry };
}

/** Whether `root`'s tree has the process built (the mailbox is newer than some previous releases). */
function hasEntry(name: ProcessName, root: string): boolean {
  return root === ROOT || name !== "inbox-mailbox" || existsSync(path.join(root, "services", "inbox", ENTRIES[name] as string));
}

/**
 * Boots the whole system as separate processes on free ports against the machine's real
 * Postgres, Redis and NATS, in a namespace (databases, streams, Redis keys) of its own.
 */
export class System {
  readonly logs = new Map<ProcessName, string[]>();
  private readonly running = new Map<ProcessName, Running>();
  private readonly logFiles = new Map<ProcessName, WriteStream>();
  private replica: System | null = null;
  /** Two replicas for the whole run (`start(env, { replicas: 2 })`): the replica set is never stopped alone. */
  private replicaForGood = false;
  /** The tree whose compiled services this system runs (System.start's `root`). */
  private root = ROOT;

  private constructor(
    readonly namespace: string,
    readonly ports: Ports,
    private readonly extraEnv: SystemEnv,
    /** A replica set joins another system's namespace: it never drops the databases or streams. */
    private readonly joined = false,
    /** The gateway's upstream URLs when they name more than this set's own processes. */
    private readonly upstreamEnv: Record<string, string> = upstreamLists([ports]),
    /**
     * Where people reach the system (identity's base_url): the first set's gateway, which serves the
     * console. Mailed links (invites, resets, verification) and the SSO redirects point there, and
     * cookie-mode sign-ins from the console's own origin pass identity's Origin check.
     */
    readonly publicUrl = `http://127.0.0.1:${ports["api-gateway"]}`,
  ) {
    // whatever ends the runner, no service outlives it
    process.once("exit", () => {
      for (const r of this.running.values()) r.child.kill("SIGKILL");
    });
  }

  /**
   * `replicas: 2` starts a second process of every service for the whole life of the system (see
   * startReplicas), and both gateways spread their requests over both sets' services.
   */
  /**
   * `publicHost: "localhost"`: identity's base_url names the gateway as `npm start`'s does
   * (http://localhost:<port>) instead of 127.0.0.1, for the tests of what a browser on either sees.
   */
  /**
   * `root`: the processes run from another built tree of the repository (the previous release's,
   * upgrade.e2e.spec.ts); this tree's by default.
   */
  static async start(extraEnv: SystemEnv = {}, opts: { replicas?: 1 | 2; publicHost?: "localhost"; root?: string } = {}): Promise<System> {
    const ns = uniqueNamespace("e2e");
    const two = opts.replicas === 2;
    // dns: the port of the DNS server the tests run themselves (domain verification reads it)
    const perSet = PROCESSES.length + MAIL_PORTS;
    const [dns, ...rest] = await freePorts(1 + perSet * (two ? 2 : 1));
    const ports = portsOf(rest.slice(0, perSet), dns as number);
    const replicaPorts = two ? portsOf(rest.slice(perSet), dns as number) : null;
    const upstreamEnv = upstreamLists(replicaPorts ? [ports, replicaPorts] : [ports]);
    const publicUrl = opts.publicHost ? `http://${opts.publicHost}:${ports["api-gateway"]}` : undefined;
    const system = new System(ns, ports, extraEnv, false, upstreamEnv, publicUrl);
    const replica = replicaPorts ? new System(ns, replicaPorts, extraEnv, true, upstreamEnv, system.publicUrl) : null;
    for (const s of [system, ...(replica ? [replica] : [])]) s.root = opts.root ?? ROOT;
    if (replica) {
      system.replica = replica;
      system.replicaForGood = true;
    }
    try {
      // Downstream first so the gateway's first requests find everyone; databases are created by the
      // services (the first set's, before the replicas join them).
      // (a previous release's tree may predate the mailbox entrypoint: upgrade.e2e.spec.ts)
      const services = PROCESSES.filter((p) => p !== "api-gateway" && hasEntry(p, system.root));
      await Promise.all(services.map((p) => system.startProcess(p)));
      if (replica) await Promise.all(services.map((p) => replica.startProcess(p)));
      await Promise.all([system, ...(replica ? [replica] : [])].map((s) => s.startProcess("api-gateway")));
    } catch (err) {
      await system.stop().catch(() => undefined);
      throw err;
    }
    return system;
  }

  /**
   * A second process of every service (gateway and SMTP intake included) on ports of its own, in
   * this system's namespace: the same databases, streams, Redis keys and message storage, as two
   * replicas of each deployment share them. Started once; stopped with this system.
   */
  async startReplicas(): Promise<System> {
    if (this.replica) return this.replica;
    const replicaPorts = portsOf(await freePorts(PROCESSES.length + MAIL_PORTS), this.ports.dns);
    const replica = new System(this.namespace, replicaPorts, this.extraEnv, true, upstreamLists([replicaPorts]), this.gatewayUrl);
    this.replica = replica;
    await Promise.all(PROCESSES.filter((p) => p !== "api-gateway" && hasEntry(p, this.root)).map((p) => replica.startProcess(p)));
    await replica.startProcess("api-gateway");
    return replica;
  }

  /**
   * Stops the replica set again (its processes only; the namespace stays this system's); a no-op
   * when the system runs two replicas for good.
   */
  async stopReplicas(): Promise<void> {
    if (this.replicaForGood) return;
    const replica = this.replica;
    this.replica = null;
    await replica?.stop();
  }

  /** The second set of processes (startReplicas, or `replicas: 2`), when it runs. */
  get replicaSet(): System | null {
    return this.replica;
  }

  /** 2 when every service runs twice for the whole life of the system, else 1. */
  get replicaCount(): 1 | 2 {
    return this.replicaForGood ? 2 : 1;
  }

  /** The sets a process is stopped or started in: this one, and the replica set when it runs for good. */
  private sets(): System[] {
    return this.replicaForGood && this.replica ? [this, this.replica] : [this];
  }

  /** stopProcess in every set: with two replicas for good, "the dispatcher is down" means both are. */
  async stopProcessEverywhere(name: ProcessName, signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
    await Promise.all(this.sets().map((s) => s.stopProcess(name, signal)));
  }

  /** startProcess in every set (see stopProcessEverywhere). */
  async startProcessEverywhere(name: ProcessName): Promise<void> {
    await Promise.all(this.sets().map((s) => s.startProcess(name)));
  }

  get gatewayUrl(): string {
    return `http://127.0.0.1:${this.ports["api-gateway"]}`;
  }

  /**
   * The first-run setup token, as an operator finds it: the tenancy's `BB_SETUP_TOKEN` when this
   * system sets one, else the one the tenancy generated and logged at start.
   */
  setupToken(): string {
    const configured = this.extraEnv.tenancy?.BB_SETUP_TOKEN ?? this.extraEnv.all?.BB_SETUP_TOKEN;
    if (configured) return configured;
    for (const line of this.logs.get("tenancy") ?? []) {
      if (!line.includes("first-run setup token")) continue;
      const token = (JSON.parse(line) as { setup_token?: string }).setup_token;
      if (token) return token;
    }
    throw new Error("no setup token: the tenancy did not log one (setup already complete?)");
  }

  get wsUrl(): string {
    return `ws://127.0.0.1:${this.ports["api-gateway"]}`;
  }

  databaseName(service: DatabaseService): string {
    return `${this.namespace}_${service.replace(/-/g, "_")}`;
  }

  private env(name: ProcessName): Record<string, string> {
    const base: Record<string, string> = {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "/tmp",
      NODE_ENV: "test",
      BB_LOG_LEVEL: "info",
      BB_HTTP_HOST: "127.0.0.1",
      BB_HTTP_PORT: String(this.ports[name]),
      REDIS_URL: testInfra.redisUrl,
      NATS_URL: testInfra.natsUrl,
      BB_NATS_NAMESPACE: this.namespace,
      BB_REDIS_KEY_PREFIX: `${this.namespace}:`,
      BB_INTERNAL_SECRET: TEST_INTERNAL_SECRET,
      BB_AUTH_JWT_SECRET: TEST_JWT_SECRET,
      BB_DOMAINS_TRUSTED: TRUSTED_DOMAIN,
      BB_SMTP_PORT: String(this.ports.smtp),
      BB_SMTP_HOST: "127.0.0.1",
      BB_DNS_SERVERS: `127.0.0.1:${this.ports.dns}`,
      BB_WEBHOOKS_UNSAFE_ALLOWED_TARGETS: "127.0.0.1,localhost",
      BB_WORKERS_CLEANUP_INTERVAL: "1s",
      // restarts stop at once: no load balancer to leave (production waits shutdown.drain_delay)
      BB_SHUTDOWN_DRAIN_DELAY: "0s",
      BB_STORAGE_LOCAL_PATH: path.join(ROOT, ".test-results", "storage", this.namespace),
      // the gateway's upstreams: this set's processes, or every set's when replicas run for good
      ...this.upstreamEnv,
    };
    if (name === "identity") {
      base.BB_BASE_URL = this.publicUrl;
      // account and invite mail goes to the system's own SMTP intake, read from an inbox like a user would
      // (STARTTLS with the intake's test certificate, trusted as a CA by this process only)
      base.BB_MAIL_SMTP_HOST = "127.0.0.1";
      base.BB_MAIL_SMTP_PORT = String(this.ports.smtp);
      base.NODE_EXTRA_CA_CERTS = path.join(ROOT, "services", "inbox", "test", "fixtures", "smtp-test.crt");
    }
    if (name === "tenancy") {
      // the configured mailer, which GET /admin/config/mailer shows while none is saved (admin-config)
      base.BB_MAIL_SMTP_HOST = "127.0.0.1";
      base.BB_MAIL_SMTP_PORT = String(this.ports.smtp);
    }
    if (name === "inbox-mailbox") {
      base.BB_IMAP_HOST = "127.0.0.1";
      base.BB_IMAP_PORT = String(this.ports.imap);
      base.BB_POP3_HOST = "127.0.0.1";
      base.BB_POP3_PORT = String(this.ports.pop3);
    }
    const service = serviceOf(name);
    if ((DB_SERVICES as readonly string[]).includes(service)) {
      base.BB_DATABASE_URL = testDatabaseUrl(this.databaseName(service as DatabaseService));
    }
    return { ...base, ...(this.extraEnv.all ?? {}), ...(this.extraEnv[name] ?? {}) };
  }

  /** Replaces the extra environment of one process from its next start on (a benchmark's before/after). */
  setProcessEnv(name: ProcessName, env: Record<string, string>): void {
    this.extraEnv[name] = env;
  }

  /** The operating-system pid of a running process (benchmarks read its CPU time). */
  pid(name: ProcessName): number | undefined {
    return this.running.get(name)?.child.pid;
  }

  /** Starts a process (a no-op when it is running) and resolves once it answers /readyz. */
  async startProcess(name: ProcessName): Promise<void> {
    if (this.running.has(name)) return;
    const { cwd, entry } = entryOf(name, this.root);
    const env = this.env(name);
    // node flags a benchmark asks for (e.g. --cpu-prof), which NODE_OPTIONS does not accept
    const nodeArgs = env.BB_BENCH_NODE_ARGS ? env.BB_BENCH_NODE_ARGS.split(" ") : [];
    delete env.BB_BENCH_NODE_ARGS;
    // BB_BENCH_PROFILE=inbox-smtp,tenancy in the runner's environment: a CPU profile of each named
    // process, written on exit under BB_BENCH_PROFILE_DIR/<name>
    if ((process.env.BB_BENCH_PROFILE ?? "").split(",").includes(name)) {
      const dir = path.join(process.env.BB_BENCH_PROFILE_DIR ?? path.join(ROOT, ".test-results", "profiles"), name);
      nodeArgs.push("--cpu-prof", `--cpu-prof-dir=${dir}`);
    }
    const child = spawn(process.execPath, [...nodeArgs, "--enable-source-maps", entry], {
      cwd,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const lines = this.logs.get(name) ?? [];
    this.logs.set(name, lines);
    let file = this.logFiles.get(name);
    if (!file) {
      const dir = path.join(ROOT, ".test-results", "e2e-logs", this.namespace);
      mkdirSync(dir, { recursive: true });
      file = createWriteStream(path.join(dir, `${name}${this.joined ? ".replica" : ""}.log`), { flags: "a" });
      this.logFiles.set(name, file);
    }
    const sink = file;
    const collect = (chunk: Buffer) => {
      const text = chunk.toString("utf8");
      sink.write(text);
      lines.push(...text.split("\n").filter((l) => l.length > 0));
    };
    child.stdout?.on("data", collect);
    child.stderr?.on("data", collect);
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    this.running.set(name, { child, exited });
    let dead = false;
    void exited.then(() => (dead = true));
    await waitFor(
      async () => {
        if (dead) throw new Error(`${name} exited during start:\n${lines.slice(-20).join("\n")}`);
        const res = await fetch(`http://127.0.0.1:${this.ports[name]}/readyz`);
        return res.status === 200;
      },
      // BB_E2E_START_TIMEOUT_MS: a longer window on a machine shared with other work (the benchmarks)
      { timeoutMs: Number(process.env.BB_E2E_START_TIMEOUT_MS ?? 90_000), intervalMs: 100, what: `${name} to be ready` },
    ).catch((err: unknown) => {
      if (dead) throw new Error(`${name} exited during start:\n${lines.slice(-30).join("\n")}`);
      throw err;
    });
  }

  /** Stops one process gracefully (SIGTERM), or kills it outright. */
  async stopProcess(name: ProcessName, signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
    const r = this.running.get(name);
    if (!r) return;
    this.running.delete(name);
    r.child.kill(signal);
    const timer = setTimeout(() => r.child.kill("SIGKILL"), 20_000);
    await r.exited;
    clearTimeout(timer);
  }

  allLogs(): string {
    const mine = [...this.logs.entries()].map(([n, l]) => l.map((x) => `${n} ${x}`).join("\n")).join("\n");
    return this.replica ? `${mine}\n${this.replica.allLogs().replace(/^/gm, "replica ")}` : mine;
  }

  async stop(): Promise<void> {
    if (this.replica) await this.replica.stop();
    await this.stopProcess("api-gateway");
    await Promise.all([...this.running.keys()].map((n) => this.stopProcess(n)));
    for (const f of this.logFiles.values()) f.end();
    if (this.joined) return;
    const admin = new Client({ connectionString: testDatabaseUrl("postgres") });
    await admin.connect();
    try {
      for (const s of DB_SERVICES) await admin.query(`DROP DATABASE IF EXISTS "${this.databaseName(s)}" WITH (FORCE)`);
    } finally {
      await admin.end();
    }
    const nc: NatsConnection = await connect({ servers: testInfra.natsUrl });
    await deleteNamespaceStreams(nc, this.namespace);
    await nc.drain();
  }
}
