import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { BrowserServer } from "playwright-core";
import { launchBrowserServer } from "./console/browser";
import { rspamdInstalled, startRspamd, stopRspamd } from "./rspamd";
import { PROCESSES, System, TRUSTED_DOMAIN, freePorts, type Ports, type ProcessName, type SystemEnv } from "./system";
import { STRONG_PASSWORD, newClientIp } from "./world";

/**
 * One system serves every e2e file: jest's globalSetup starts it once, globalTeardown stops it
 * once (tests-e2e/jest.config.js). Test files reach it through `system` below, which they get
 * from the BB_E2E_SYSTEM variable the setup exports; process restarts and logs go through a small
 * control server in the runner, because the System object lives there, not in the test files.
 */
const ENV_VAR = "BB_E2E_SYSTEM";

/** How many system admins a run can register (each test that needs one claims its own). */
const ADMIN_POOL = 32;

/** The subject of identity's verification mail, which makes a claimed admin address an admin once followed. */
const VERIFICATION_SUBJECT = "Confirm your BurnBox email";

/** The domain demo inboxes are created on (demo). */
export const DEMO_DOMAIN = "demo.e2e.test";

/** The SMTP intake's test-only certificate (CN localhost, 127.0.0.1) and key. */
export const SMTP_TLS_FIXTURES = path.resolve(__dirname, "..", "..", "services", "inbox", "test", "fixtures");

/** Loopback addresses the admin's SMTP and storage tests may reach (infra.unsafe_allowed_targets): the test's own relay and S3 server. */
export const ADMIN_CONFIG_TARGETS = "127.77.0.0/16";

/**
 * The one peer whose PROXY protocol headers the SMTP intake believes (smtp-proxy's relay connects
 * from it); every other peer, 127.0.0.1 included, is served as itself, as before.
 */
export const SMTP_PROXY_BALANCER = "127.0.0.25";

/** The browser origin the cookie-mode tests send. */
export const APP_ORIGIN = "http://app.e2e.test";

/**
 * The one configuration every file runs against, and the test that needs each setting.
 * Tests keep out of each other's way by identity, not by configuration: each makes its own
 * users, org and team, and speaks from its own client IP (X-Forwarded-For, trusted from the
 * runner) whenever a per-IP limit is involved.
 */
function sharedEnv(adminEmails: string[], rspamdUrl: string | null): SystemEnv {
  return {
    identity: {
      BB_ADMIN_EMAILS: adminEmails.join(","),
      // cookie-mode refresh and logout (auth)
      BB_CORS_ALLOWED_ORIGINS: APP_ORIGIN,
      // registrations and logins are the bulk of setup time; the hash still is argon2id
      BB_AUTH_ARGON2_MEMORY_KIB: "8192",
      // expired API keys must stay to answer "API key expired" rather than "invalid" (apikeys)
      BB_WORKERS_CLEANUP_INTERVAL: "1h",
      // SSO client secrets are stored encrypted; the test's OpenID provider runs on 127.0.0.1 over http (sso)
      BB_ENCRYPTION_KEY: "5e".repeat(32),
      BB_SSO_UNSAFE_ALLOWED_ISSUERS: "127.0.0.1",
      // the saved platform mailer may reach the test's own relays on 127.77.x.x, like tenancy's probes (admin-config)
      BB_INFRA_UNSAFE_ALLOWED_TARGETS: ADMIN_CONFIG_TARGETS,
    },
    tenancy: {
      // the platform mailer password and storage secret key are sealed with the services' one key (admin-config)
      BB_ENCRYPTION_KEY: "5e".repeat(32),
      // the admin SMTP and storage tests reach the test's own targets on 127.77.x.x (admin-config); 127.0.0.1 stays refused
      BB_INFRA_UNSAFE_ALLOWED_TARGETS: ADMIN_CONFIG_TARGETS,
      // invite links lapse within seconds, so a test sees an expired one (tenancy-invites); each test accepts its own at once
      BB_INVITES_TTL: "20s",
    },
    "realtime-gateway": {
      // /ws/admin-stats sends a frame every second rather than every 10 s, so a test sees a change without a long wait (admin-stats)
      BB_WS_ADMIN_STATS_INTERVAL_MS: "1000",
    },
    "api-gateway": {
      // the runner is the trusted proxy, so X-Forwarded-For decides the client IP (per-IP limits, allowed_ips)
      BB_RATE_LIMIT_TRUSTED_PROXIES: "127.0.0.1,::1",
    },
    "webhook-dispatcher": {
      // webhook signing secrets are sealed at rest with the services' one key (webhooks)
      BB_ENCRYPTION_KEY: "5e".repeat(32),
      // a hanging receiver is cut after 1 s (webhooks); every other receiver answers at once
      BB_DEFAULTS_WEBHOOK_TIMEOUT: "1s",
      // the retry base stays the real 5 s: the retry-schedule and restart tests check it
      // keep the webhook_retry worker from clearing a failure_count while a test reads it
      BB_WORKERS_WEBHOOK_RETRY_INTERVAL: "1h",
    },
    // inboxes (and their inbox.expired events) lapse within a second of their TTL (webhooks)
    inbox: {
      BB_WORKERS_CLEANUP_INTERVAL: "1s",
      // the public demo (demo); each test creates from its own client IP, so the hourly per-IP limit stays the default
      BB_DEMO_ENABLED: "true",
      BB_DEMO_DOMAIN: DEMO_DOMAIN,
      // opens the saved platform storage's secret key (admin-config)
      BB_ENCRYPTION_KEY: "5e".repeat(32),
    },
    "inbox-mailbox": {
      // STARTTLS (IMAP) and STLS (POP3) with the intake's test-only certificate, as a mail client meets them (mailbox: fetchmail asks for TLS)
      BB_MAILBOX_TLS_CERT: path.join(SMTP_TLS_FIXTURES, "smtp-test.crt"),
      BB_MAILBOX_TLS_KEY: path.join(SMTP_TLS_FIXTURES, "smtp-test.key"),
    },
    "inbox-smtp": {
      // STARTTLS on the SMTP port, with the test-only certificate (mail-tls)
      BB_SMTP_TLS_CERT: path.join(SMTP_TLS_FIXTURES, "smtp-test.crt"),
      BB_SMTP_TLS_KEY: path.join(SMTP_TLS_FIXTURES, "smtp-test.key"),
      // identity's mailer (verification and invite mail) sends from 127.0.0.1 like the runner does: one per-IP budget for both
      BB_SMTP_MAX_MESSAGES_PER_IP_PER_MINUTE: "3000",
      BB_ENCRYPTION_KEY: "5e".repeat(32),
      // a dripped command line, a trickled DATA and a long session are cut within seconds (smtp-limits); every other session is far shorter
      BB_SMTP_COMMAND_TIMEOUT: "2s",
      BB_SMTP_DATA_TIMEOUT: "3s",
      BB_SMTP_SESSION_TIMEOUT: "5s",
      // a load balancer's PROXY header is believed from its address only; everyone else is served as their own (smtp-proxy)
      BB_SMTP_PROXY_PROTOCOL_TRUSTED_CIDRS: `${SMTP_PROXY_BALANCER}/32`,
      BB_SMTP_PROXY_PROTOCOL_UNTRUSTED: "plain",
      // every message scored by the run's own rspamd when it is installed (spam-score); 1 s budget: a stopped rspamd costs little
      ...(rspamdUrl ? { BB_SPAM_RSPAMD_URL: rspamdUrl, BB_SPAM_TIMEOUT: "1s" } : {}),
    },
  };
}

interface Published {
  namespace: string;
  ports: Ports;
  controlUrl: string;
  /** 2 under BB_E2E_REPLICAS=2: every service runs twice and both gateways use both sets. */
  replicas: 1 | 2;
  /** The second set's ports when `replicas` is 2. */
  replicaPorts?: Ports;
  /** An API key of the operator's team that reads the claimed admin addresses' inboxes. */
  adminMailKey: string;
  /** The run's rspamd (spam-score), when installed: its port (the URL the intake asks). */
  rspamdPort?: number;
}

/**
 * BB_E2E_REPLICAS=2 (`npm run test:replicas`) runs the whole suite against two replicas of every
 * service: `ports` stay the first set's (its gateway and SMTP intake), whose gateway, like the
 * second one, spreads requests over both sets' services.
 */
function replicasOfRun(): 1 | 2 {
  const raw = process.env.BB_E2E_REPLICAS ?? "1";
  if (raw === "1" || raw === "") return 1;
  if (raw === "2") return 2;
  throw new Error(`BB_E2E_REPLICAS must be 1 or 2, not ${JSON.stringify(raw)}`);
}

/** Where globalSetup leaves the running system for globalTeardown (jest runs both in its own process and shares globalThis). */
const RUNNING = Symbol.for("burnbox.e2e.system");
type Holder = { [RUNNING]?: { system: System; control: Server; browser?: Promise<BrowserServer> } };

/** globalSetup: starts the system and the control server, and publishes where they are. */
export async function startSharedSystem(): Promise<void> {
  const started = Date.now();
  const tag = randomBytes(4).toString("hex");
  // the admin addresses receive mail: an inbox of the operator's team on this domain (made when claimed)
  const adminDomain = `admins-${tag}.${TRUSTED_DOMAIN}`;
  const adminEmails = Array.from({ length: ADMIN_POOL }, (_, i) => `root-${i}-${tag}@${adminDomain}`);
  const replicas = replicasOfRun();
  const [rspamdPort] = rspamdInstalled() ? await freePorts(1) : [];
  // rspamd starts beside the services (its first start compiles its rules); the intake answers
  // `unavailable` until it is up, and no test runs before it is
  const rspamdUrl = rspamdPort ? `http://127.0.0.1:${rspamdPort}` : null;
  const rspamdReady = rspamdPort ? startRspamd(rspamdPort) : Promise.resolve(null);
  const system = await Promise.all([System.start(sharedEnv(adminEmails, rspamdUrl), { replicas }), rspamdReady])
    .then(([s]) => s)
    .catch(async (err: unknown) => {
      // no teardown follows a failed setup: the run's rspamd goes with it
      await stopRspamd();
      throw err;
    });
  // an installation in use: its operator completed first-run setup with the setup token, so the
  // console never leads to /setup (console-setup runs a fresh system of its own)
  const operator = await registerOperator(system, `operator-${tag}@example.test`);
  const mailbox = await adminMailbox(system, operator, adminDomain);
  const control = await startControl(system, adminEmails, mailbox);
  (globalThis as Holder)[RUNNING] = { system, control };
  const published: Published = {
    namespace: system.namespace,
    ports: system.ports,
    controlUrl: `http://127.0.0.1:${(control.address() as AddressInfo).port}`,
    replicas,
    adminMailKey: mailbox.apiKey,
    ...(rspamdPort ? { rspamdPort } : {}),
    ...(replicas === 2 ? { replicaPorts: (await system.startReplicas()).ports } : {}),
  };
  process.env[ENV_VAR] = JSON.stringify(published);
  process.stdout.write(
    `\ne2e: system ${system.namespace} started${replicas === 2 ? " with two replicas of every process" : ""} in ${Date.now() - started} ms\n`,
  );
}

/** The operator's first system admin: who they are, their access token, and the org setup made. */
export interface Operator {
  email: string;
  token: string;
  userId: string;
  orgId: string;
}

/**
 * Completes first-run setup the way an operator does: `POST /setup/complete` with the setup token
 * (the tenancy's `BB_SETUP_TOKEN`, else the one it logged at start), which makes the first system
 * admin and its org. Until then the console sends every visitor to /setup. Benchmarks and other
 * single systems call it after start.
 */
export async function registerOperator(system: System, email: string, password = STRONG_PASSWORD): Promise<Operator> {
  const res = await fetch(`${system.gatewayUrl}/api/v1/setup/complete`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": "10.254.254.254" },
    body: JSON.stringify({
      setup_token: system.setupToken(),
      admin: { email, password, display_name: "Operator" },
      org: { name: "Operations" },
    }),
  });
  const body = (await res.json()) as { user: { id: string }; org: { id: string }; tokens: { access_token: string } };
  if (res.status !== 201) throw new Error(`completing setup for the operator: ${res.status} ${JSON.stringify(body)}`);
  return { email, token: body.tokens.access_token, userId: body.user.id, orgId: body.org.id };
}

/**
 * Where the claimed admin addresses receive their mail: a team of the operator's org with the
 * admin domain (trusted, so verified at once) and an API key that creates inboxes and reads them.
 */
async function adminMailbox(system: System, operator: Operator, domainName: string): Promise<{ apiKey: string; assignmentId: string }> {
  const call = async <T>(path: string, body: unknown): Promise<T> => {
    const res = await fetch(`${system.gatewayUrl}/api/v1${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${operator.token}` },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status !== 201) throw new Error(`admin mailbox: POST ${path}: ${res.status} ${text}`);
    return JSON.parse(text) as T;
  };
  const org = `/orgs/${operator.orgId}`;
  const team = await call<{ id: string }>(`${org}/teams`, { name: "Admin mail" });
  const domain = await call<{ id: string }>(`${org}/domains`, { domain_name: domainName });
  const assignment = await call<{ id: string }>(`${org}/teams/${team.id}/domains`, { domain_id: domain.id });
  const key = await call<{ raw_key: string }>(`${org}/teams/${team.id}/api-keys`, {
    name: "admin mail",
    scopes: ["team.inboxes.view", "team.inboxes.create", "team.emails.view"],
  });
  return { apiKey: key.raw_key, assignmentId: assignment.id };
}

/** globalTeardown. */
export async function stopSharedSystem(): Promise<void> {
  const running = (globalThis as Holder)[RUNNING];
  if (!running) return;
  delete (globalThis as Holder)[RUNNING];
  const { system, control, browser } = running;
  const started = Date.now();
  await new Promise<void>((resolve) => control.close(() => resolve()));
  await browser?.then((b) => b.close()).catch(() => undefined);
  await system.stop();
  await stopRspamd();
  process.stdout.write(`e2e: system ${system.namespace} stopped in ${Date.now() - started} ms\n`);
}

/**
 * POST /processes/<name>/stop[?signal=SIGKILL], POST /processes/<name>/start (with two replicas
 * for good: that process in both sets; `?set=replica`: the second set's only), GET /logs, POST
 * /admins (the next unused admin email), POST|DELETE /replicas, POST /browser (the run's one
 * Chromium, started on first use: its WebSocket endpoint).
 */
function startControl(system: System, adminEmails: string[], mailbox: { apiKey: string; assignmentId: string }): Promise<Server> {
  const unclaimed = [...adminEmails];
  /** The inbox that receives a claimed address's mail (its verification link). */
  const inboxFor = async (email: string): Promise<string> => {
    const res = await fetch(`${system.gatewayUrl}/api/v1/inboxes`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${mailbox.apiKey}` },
      body: JSON.stringify({ domain_assignment_id: mailbox.assignmentId, alias: email.split("@")[0], ttl: "24h" }),
    });
    const text = await res.text();
    if (res.status !== 201) throw new Error(`the inbox of ${email}: ${res.status} ${text}`);
    return (JSON.parse(text) as { id: string }).id;
  };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://control");
    const [, kind, name, action] = url.pathname.split("/");
    const reply = (status: number, text: string) => {
      res.statusCode = status;
      res.end(text);
    };
    if (req.method === "GET" && kind === "logs") return reply(200, system.allLogs());
    if (req.method === "DELETE" && kind === "replicas") {
      system.stopReplicas().then(
        () => reply(204, ""),
        (err: unknown) => reply(500, err instanceof Error ? err.message : String(err)),
      );
      return;
    }
    if (req.method === "POST" && kind === "replicas") {
      system.startReplicas().then(
        (replica) => reply(200, JSON.stringify(replica.ports)),
        (err: unknown) => reply(500, err instanceof Error ? err.message : String(err)),
      );
      return;
    }
    if (req.method === "POST" && kind === "browser") {
      const holder = (globalThis as Holder)[RUNNING];
      if (!holder) return reply(409, "the system is not running");
      // the console's browser tests share one browser, started when the first of them asks
      holder.browser ??= launchBrowserServer();
      holder.browser.then(
        (b) => reply(200, b.wsEndpoint()),
        (err: unknown) => {
          delete holder.browser;
          reply(500, err instanceof Error ? err.message : String(err));
        },
      );
      return;
    }
    if (req.method === "POST" && kind === "admins") {
      const email = unclaimed.shift();
      if (!email) return reply(409, `all ${adminEmails.length} admin emails are taken: raise ADMIN_POOL`);
      inboxFor(email).then(
        (inboxId) => reply(200, JSON.stringify({ email, inbox_id: inboxId })),
        (err: unknown) => reply(500, err instanceof Error ? err.message : String(err)),
      );
      return;
    }
    if (req.method !== "POST" || kind !== "processes" || !(PROCESSES as readonly string[]).includes(name ?? "")) return reply(404, "");
    const proc = name as ProcessName;
    const signal = (url.searchParams.get("signal") ?? "SIGTERM") as NodeJS.Signals;
    if (url.searchParams.get("set") === "replica") {
      const replica = system.replicaSet;
      if (!replica) return reply(409, "no replica set is running");
      const one =
        action === "stop"
          ? replica.stopProcess(proc, signal)
          : action === "start"
            ? replica.startProcess(proc)
            : Promise.reject(new Error(action));
      one.then(
        () => reply(204, ""),
        (err: unknown) => reply(500, err instanceof Error ? err.message : String(err)),
      );
      return;
    }
    const op =
      action === "stop"
        ? system.stopProcessEverywhere(proc, signal)
        : action === "start"
          ? system.startProcessEverywhere(proc)
          : Promise.reject(new Error(action));
    op.then(
      () => reply(204, ""),
      (err: unknown) => reply(500, err instanceof Error ? err.message : String(err)),
    );
  });
  // the test files (all in this process) reuse their keep-alive connections to this server for
  // the whole run: never closing an idle one avoids a request meeting its close (ECONNRESET) on a
  // busy machine; teardown's close() ends idle connections itself
  server.keepAliveTimeout = 0;
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

/**
 * The link of identity's verification mail in an inbox, waited for like any client waits
 * (`GET /inboxes/:id/emails/wait`, with the link extraction of the answer); `since` skips older mail.
 */
export async function verificationLink(gatewayUrl: string, credential: string, inboxId: string, since?: Date): Promise<string> {
  const query = new URLSearchParams({ subject: VERIFICATION_SUBJECT, timeout: "30s", ...(since ? { since: since.toISOString() } : {}) });
  const res = await fetch(`${gatewayUrl}/api/v1/inboxes/${inboxId}/emails/wait?${query.toString()}`, {
    headers: { authorization: `Bearer ${credential}` },
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`waiting for the verification mail: ${res.status} ${text}`);
  const body = JSON.parse(text) as { timed_out: boolean; data: Array<{ extracted: { links: Array<{ url: string }> } }> };
  const url = body.data[0]?.extracted.links.find((l) => l.url.includes("/verify-email/"))?.url;
  if (!url) throw new Error(`no verification link arrived: ${text.slice(0, 500)}`);
  return url;
}

/** What a test file sees of the shared system: its public ports, plus restarts and logs for the tests that need them. */
export class SharedSystem {
  /** The inbox of each admin address this process claimed. */
  private readonly adminInboxes = new Map<string, string>();

  private constructor(private readonly published: Published) {}

  static attach(): SharedSystem {
    const raw = process.env[ENV_VAR];
    if (!raw)
      throw new Error(`${ENV_VAR} is not set: run the e2e files through tests-e2e/jest.config.js, whose globalSetup starts the system`);
    return new SharedSystem(JSON.parse(raw) as Published);
  }

  get namespace(): string {
    return this.published.namespace;
  }

  /** The run's rspamd port (spam-score), when rspamd is installed. */
  get rspamdPort(): number | undefined {
    return this.published.rspamdPort;
  }

  get ports(): Published["ports"] {
    return this.published.ports;
  }

  /** 2 when the run has two replicas of every process (BB_E2E_REPLICAS=2), else 1. */
  get replicas(): 1 | 2 {
    return this.published.replicas ?? 1;
  }

  /**
   * The ports of every running set of processes: `ports`, and with two replicas for the whole run
   * the second set's too (a per-process reading such as /metrics sums over them).
   */
  get portsOfEverySet(): Array<Published["ports"]> {
    return this.published.replicaPorts ? [this.ports, this.published.replicaPorts] : [this.ports];
  }

  get gatewayUrl(): string {
    return `http://127.0.0.1:${this.ports["api-gateway"]}`;
  }

  get wsUrl(): string {
    return `ws://127.0.0.1:${this.ports["api-gateway"]}`;
  }

  /** The WebSocket endpoint of the run's one Chromium (started on the first call); connect with playwright-core's `chromium.connect`. */
  browserEndpoint(): Promise<string> {
    return this.control("POST", "/browser");
  }

  /**
   * An address in identity's `admin.emails`, never handed out before, with an inbox that receives
   * its mail. Registering it makes no admin: `confirmAdminEmail` then follows its verification
   * link, as its owner would (`registerAdmin` in world.ts does both and signs in again).
   */
  async claimAdminEmail(): Promise<string> {
    const { email, inbox_id } = JSON.parse(await this.control("POST", "/admins")) as { email: string; inbox_id: string };
    this.adminInboxes.set(email, inbox_id);
    return email;
  }

  /**
   * Follows the verification link identity mailed to a claimed admin address that registered
   * (the mail arrives at the system's own SMTP intake): the account becomes a system admin, and
   * its sessions end, so sign in again for an admin's token.
   */
  async confirmAdminEmail(email: string): Promise<void> {
    const inboxId = this.adminInboxes.get(email);
    if (!inboxId) throw new Error(`${email} was not claimed by this test file (claimAdminEmail)`);
    const link = await verificationLink(this.gatewayUrl, this.published.adminMailKey, inboxId);
    const token = new URL(link).pathname.split("/").pop() ?? "";
    // from a client IP of its own: unauthenticated calls from the runner's address share one per-IP limit
    const res = await fetch(`${this.gatewayUrl}/api/v1/auth/verify-email/${encodeURIComponent(token)}`, {
      headers: { "x-forwarded-for": newClientIp() },
    });
    if (res.status !== 200) throw new Error(`verifying ${email}: ${res.status} ${await res.text()}`);
  }

  private async control(method: string, path: string): Promise<string> {
    const res = await fetch(`${this.published.controlUrl}${path}`, { method });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text;
  }

  /** Stops a process (with two replicas: that process of both sets, so the service is down). */
  async stopProcess(name: ProcessName, signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
    await this.control("POST", `/processes/${name}/stop?signal=${signal}`);
  }

  /** Starts a stopped process again; resolves once it answers /readyz. */
  async startProcess(name: ProcessName): Promise<void> {
    await this.control("POST", `/processes/${name}/start`);
  }

  /** Stops one process of the second set only (a replica down while its twin serves). */
  async stopReplicaProcess(name: ProcessName, signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
    await this.control("POST", `/processes/${name}/stop?signal=${signal}&set=replica`);
  }

  /** Starts a process of the second set again; resolves once it answers /readyz. */
  async startReplicaProcess(name: ProcessName): Promise<void> {
    await this.control("POST", `/processes/${name}/start?set=replica`);
  }

  /**
   * Starts a second process of every service in this system's namespace and returns its ports: a
   * second gateway and SMTP intake in front of second replicas of everything. Stop it after use.
   * With two replicas for the whole run, the running second set's ports.
   */
  async replicaPorts(): Promise<Published["ports"]> {
    return JSON.parse(await this.control("POST", "/replicas")) as Published["ports"];
  }

  /** Stops the replica set (the other files expect one process of each service); a no-op with two replicas for the whole run. */
  async stopReplicas(): Promise<void> {
    await this.control("DELETE", "/replicas");
  }

  /** Every line every process has written so far. */
  allLogs(): Promise<string> {
    return this.control("GET", "/logs");
  }
}
