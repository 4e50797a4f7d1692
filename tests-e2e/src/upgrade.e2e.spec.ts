import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readdirSync } from "node:fs";
import path from "node:path";
import { Client } from "pg";
import { testDatabaseUrl, waitFor } from "@burnbox/test-kit";
import { apiClient, sendMail } from "./clients";
import { buildPreviousRelease, type PreviousRelease } from "./previous-release";
import { registerOperator } from "./shared-system";
import { DATABASE_USERS, DB_SERVICES, System, type DatabaseService } from "./system";
import { alias, createHook, Receiver } from "./webhook-kit";
import { createInbox, teamWithDomain } from "./world";

const ROOT = path.resolve(__dirname, "..", "..");

/** This tree's migrations of a service, by name: what the new release's migration Job applies. */
const migrationsOf = (service: DatabaseService) =>
  readdirSync(path.join(ROOT, "services", service, "prisma", "migrations"), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();

/** The new release's migration Job for one service: `node dist/migrate.js` of this tree's build. */
function migrate(service: DatabaseService, url: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, "services", service, "dist", "migrate.js")], {
      env: { PATH: process.env.PATH ?? "", BB_DATABASE_URL: url, BB_LOG_LEVEL: "warn" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (c: Buffer) => (output += c.toString("utf8")));
    child.stderr.on("data", (c: Buffer) => (output += c.toString("utf8")));
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`migrating ${service} failed (${code}): ${output}`))));
  });
}

interface Email {
  id: string;
  subject: string;
}

/**
 * The upgrade rule of docs/operations.md ("Changing the schema"), tried: the new release's
 * migration Job migrates fresh databases, and the previous release's services (built from its own
 * commit, previous-release.ts), which a rolling update leaves serving until the last new pod is
 * ready, start on them without migrating and serve the smoke journey: first-run setup, sign-up, a
 * team with a domain, an inbox, mail in over SMTP read back and searched, an API key, a signed
 * webhook delivery.
 */
describe("upgrade: the previous release's services serve on the schema the new release migrated", () => {
  const tag = `upgrade_${randomBytes(4).toString("hex")}`;
  const urlOf = (service: DatabaseService) => testDatabaseUrl(`${tag}_${service.replace(/-/g, "_")}`);
  let previous: PreviousRelease;
  let system: System | undefined;
  let rx: Receiver | undefined;
  let api: ReturnType<typeof apiClient>;

  beforeAll(async () => {
    previous = await buildPreviousRelease();
    process.stdout.write(`upgrade: from ${previous.sha.slice(0, 10)} (${previous.chosen})\n`);
    await Promise.all(DB_SERVICES.map((s) => migrate(s, urlOf(s))));
    const env: Record<string, Record<string, string>> = {
      // the migration Job migrated: the pods do not (as the manifests set it)
      all: { BB_DATABASE_MIGRATE_ON_START: "false", BB_ENCRYPTION_KEY: "5e".repeat(32) },
      "api-gateway": { BB_RATE_LIMIT_TRUSTED_PROXIES: "127.0.0.1,::1" },
    };
    for (const service of DB_SERVICES) for (const p of DATABASE_USERS[service]) env[p] = { ...env[p], BB_DATABASE_URL: urlOf(service) };
    env.identity = { ...env.identity, BB_AUTH_ARGON2_MEMORY_KIB: "8192" };
    system = await System.start(env, { root: previous.root });
    await registerOperator(system, `operator-${tag}@example.test`);
    api = apiClient(system.gatewayUrl);
  }, 600_000);

  afterAll(async () => {
    await system?.stop();
    await rx?.close();
    const admin = new Client({ connectionString: testDatabaseUrl("postgres") });
    await admin.connect();
    try {
      for (const service of DB_SERVICES)
        await admin.query(`DROP DATABASE IF EXISTS "${new URL(urlOf(service)).pathname.slice(1)}" WITH (FORCE)`);
    } finally {
      await admin.end();
    }
  });

  it("when the previous release starts on the migrated databases, then they hold every migration of the new one and it applied none itself", async () => {
    for (const service of DB_SERVICES) {
      const db = new Client({ connectionString: urlOf(service) });
      await db.connect();
      try {
        const { rows } = await db.query<{ name: string }>('SELECT name FROM "_bb_migrations" ORDER BY name');
        expect(rows.map((r) => r.name)).toEqual(migrationsOf(service));
      } finally {
        await db.end();
      }
      for (const p of DATABASE_USERS[service])
        expect(system?.logs.get(p)?.some((l) => l.includes('"msg":"migration applied"'))).toBe(false);
    }
  });

  it("when a team signs up, receives mail and reads, searches and hooks it, then the previous release serves all of it", async () => {
    const world = await teamWithDomain(api);
    const inbox = await createInbox(api, world.owner.token, world.assignmentId, alias("up"));
    const key = await api<{ raw_key: string }>("POST", `/orgs/${world.orgId}/teams/${world.teamId}/api-keys`, {
      token: world.owner.token,
      body: { name: "upgrade", scopes: ["team.inboxes.view", "team.emails.view"] },
    });
    expect(key.status).toBe(201);
    rx = await Receiver.start();
    const hook = await createHook(api, world, rx.url, ["email.received"]);

    const reply = await sendMail((system as System).ports.smtp, {
      from: "sender@example.org",
      to: inbox.full_address,
      subject: "upgrade smoke",
      text: "served by the previous release",
    });
    expect(reply.data?.code).toBe(250);
    const [email] = await waitFor(
      async () => {
        const res = await api<{ data: Email[] }>("GET", `/inboxes/${inbox.id}/emails`, { token: key.body.raw_key });
        return res.body.data?.length ? res.body.data : null;
      },
      { what: "the mail" },
    );
    expect(email?.subject).toBe("upgrade smoke");
    const read = await api<{ id: string; body_text: string }>("GET", `/emails/${email?.id}`, { token: key.body.raw_key });
    expect(read.status).toBe(200);
    expect(read.body.body_text).toContain("served by the previous release");
    for (const q of ["subject:upgrade", "previous"]) {
      const found = await api<{ data: Email[] }>("GET", `/inboxes/${inbox.id}/emails?q=${encodeURIComponent(q)}`, {
        token: key.body.raw_key,
      });
      expect([q, found.status, found.body.data?.map((e) => e.id)]).toEqual([q, 200, [email?.id]]);
    }
    const delivered = await waitFor(() => rx?.deliveries(hook.secret).find((d) => d.event === "email.received"), {
      what: "the webhook delivery",
    });
    expect(delivered.body.data).toMatchObject({ inbox_id: inbox.id });
  });
});
