import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cpSync, existsSync, mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { Client } from "pg";
import { testDatabaseUrl, waitFor } from "@burnbox/test-kit";
import { apiClient, SmtpSession, sendMail, buildMessage } from "./clients";
import { SharedSystem } from "./shared-system";
import { DATABASE_USERS, DB_SERVICES, System, type DatabaseService } from "./system";
import { alias, createHook, Receiver, type Hook } from "./webhook-kit";
import { createInbox, STRONG_PASSWORD, teamWithDomain } from "./world";

const ROOT = path.resolve(__dirname, "..", "..");

/** The services' one encryption key (shared-system.ts): the restored system must be given the same. */
const ENCRYPTION_KEY = "5e".repeat(32);

/** Runs a PostgreSQL client tool; its stderr in the error when it fails. */
function pgTool(tool: "pg_dump" | "pg_restore", args: string[]): void {
  const r = spawnSync(tool, args, { encoding: "utf8" });
  if (r.error) throw new Error(`${tool} could not run (${r.error.message}): install PostgreSQL's client tools (Debian: postgresql-client)`);
  if (r.status !== 0) throw new Error(`${tool} ${args.join(" ")} failed (${r.status}): ${r.stderr}`);
}

interface Email {
  id: string;
  subject: string;
}

/**
 * The restore drill of docs/operations.md ("Backups and restore"), on this machine: the shared
 * system serves a team's mail, API key and webhook; each service's database is dumped with
 * pg_dump while it keeps serving, the object store's files are copied, the dumps are restored into
 * fresh databases, and a second system started on them (with the same encryption key) serves the
 * mail and its raw source, accepts the key and the password, takes new mail, and signs the
 * webhook's deliveries with the secret it had sealed.
 */
describe("restore drill: every database dumped and restored, and a system started on the copies", () => {
  const source = SharedSystem.attach();
  const api = apiClient(source.gatewayUrl);
  const tag = `restore_${randomBytes(4).toString("hex")}`;
  const dumps = path.join(ROOT, ".test-results", "restore-drill", tag);
  const restoredStorage = path.join(ROOT, ".test-results", "storage", tag);
  const restoredUrl = (service: DatabaseService) => testDatabaseUrl(`${tag}_${service.replace(/-/g, "_")}`);
  let restored: System | undefined;
  let rx: Receiver;
  let world: Awaited<ReturnType<typeof teamWithDomain>>;
  let inbox: { id: string; full_address: string };
  let apiKey: string;
  let hook: Hook;
  let email: Email;
  let sent: string;

  beforeAll(async () => {
    rx = await Receiver.start();
    // what the source serves before the backup
    world = await teamWithDomain(api);
    inbox = await createInbox(api, world.owner.token, world.assignmentId, alias("drill"));
    const key = await api<{ raw_key: string }>("POST", `/orgs/${world.orgId}/teams/${world.teamId}/api-keys`, {
      token: world.owner.token,
      body: { name: "drill", scopes: ["team.inboxes.view", "team.emails.view"] },
    });
    if (key.status !== 201) throw new Error(`key: ${key.status} ${JSON.stringify(key.body)}`);
    apiKey = key.body.raw_key;
    hook = await createHook(api, world, rx.url, ["email.received"]);
    sent = buildMessage({
      from: "before@example.org",
      to: inbox.full_address,
      subject: "before the backup",
      text: "kept across the restore",
    });
    const s = await SmtpSession.open(source.ports.smtp);
    try {
      expect((await s.command("MAIL FROM:<before@example.org>")).code).toBe(250);
      expect((await s.command(`RCPT TO:<${inbox.full_address}>`)).code).toBe(250);
      expect((await s.data(sent)).code).toBe(250);
    } finally {
      await s.quit();
    }
    email = await waitFor(
      async () => (await api<{ data: Email[] }>("GET", `/inboxes/${inbox.id}/emails`, { token: apiKey })).body.data?.[0],
      { what: "the mail on the source" },
    );
    // the dispatcher has taken the event (its delivery on the source), so the backup holds the webhook as it serves
    await waitFor(() => rx.deliveries(hook.secret).find((d) => d.event === "email.received"), { what: "the source's delivery" });

    // the backup: each database, then the object store (files written after the dumps are only unreferenced)
    mkdirSync(dumps, { recursive: true });
    for (const service of DB_SERVICES)
      pgTool("pg_dump", [
        "--format=custom",
        "--no-owner",
        `--file=${path.join(dumps, `${service}.dump`)}`,
        `--dbname=${testDatabaseUrl(`${source.namespace}_${service.replace(/-/g, "_")}`)}`,
      ]);
    const sourceStorage = path.join(ROOT, ".test-results", "storage", source.namespace);
    if (!existsSync(sourceStorage)) throw new Error(`the source's object store ${sourceStorage} is missing`);
    cpSync(sourceStorage, restoredStorage, { recursive: true });

    // the restore: fresh databases, each dump restored into its own
    const admin = new Client({ connectionString: testDatabaseUrl("postgres") });
    await admin.connect();
    try {
      for (const service of DB_SERVICES) await admin.query(`CREATE DATABASE "${new URL(restoredUrl(service)).pathname.slice(1)}"`);
    } finally {
      await admin.end();
    }
    for (const service of DB_SERVICES)
      pgTool("pg_restore", ["--no-owner", "--exit-on-error", `--dbname=${restoredUrl(service)}`, path.join(dumps, `${service}.dump`)]);

    // a second system on the copies: its own ports, streams and Redis keys, the same encryption key
    const env: Record<string, Record<string, string>> = {
      all: { BB_ENCRYPTION_KEY: ENCRYPTION_KEY, BB_STORAGE_LOCAL_PATH: restoredStorage },
    };
    for (const service of DB_SERVICES) for (const p of DATABASE_USERS[service]) env[p] = { BB_DATABASE_URL: restoredUrl(service) };
    restored = await System.start(env);
  });

  afterAll(async () => {
    await restored?.stop();
    await rx?.close();
    const admin = new Client({ connectionString: testDatabaseUrl("postgres") });
    await admin.connect();
    try {
      for (const service of DB_SERVICES)
        await admin.query(`DROP DATABASE IF EXISTS "${new URL(restoredUrl(service)).pathname.slice(1)}" WITH (FORCE)`);
    } finally {
      await admin.end();
    }
    rmSync(dumps, { recursive: true, force: true });
    rmSync(restoredStorage, { recursive: true, force: true });
  });

  const restoredApi = () => apiClient((restored as System).gatewayUrl);

  it("when the system starts on the restored databases, then every migration is already applied and it serves the mail with its raw source", async () => {
    // each service migrated on start and found nothing to apply: the dumps carry _bb_migrations
    for (const p of ["identity", "tenancy", "inbox", "webhook-dispatcher", "realtime-gateway"] as const)
      expect((restored as System).logs.get(p)?.some((l) => l.includes('"msg":"migration applied"'))).toBe(false);
    const list = await restoredApi()<{ data: Email[] }>("GET", `/inboxes/${inbox.id}/emails`, { token: apiKey });
    expect(list.status).toBe(200);
    expect(list.body.data.map((e) => [e.id, e.subject])).toEqual([[email.id, "before the backup"]]);
    // the raw source comes from the copied object store
    const raw = await fetch(`${(restored as System).gatewayUrl}/api/v1/emails/${email.id}/raw`, {
      headers: { authorization: `Bearer ${apiKey}` },
    });
    expect(raw.status).toBe(200);
    expect(await raw.text()).toBe(`${sent}\r\n`);
  });

  it("when the team's API key and the owner's password are used on the restored system, then both are accepted", async () => {
    const inboxes = await restoredApi()<{ data: Array<{ id: string; email_count: number }> }>("GET", "/inboxes", { token: apiKey });
    expect(inboxes.status).toBe(200);
    expect(inboxes.body.data).toEqual([expect.objectContaining({ id: inbox.id, email_count: 1 })]);
    const login = await restoredApi()<{ user: { id: string } }>("POST", "/auth/login", {
      body: { email: world.owner.email, password: STRONG_PASSWORD },
    });
    expect(login.status).toBe(200);
    expect(login.body.user.id).toBe(world.owner.userId);
    const wrong = await restoredApi()("GET", "/inboxes", { token: `bb_${randomBytes(32).toString("hex")}` });
    expect(wrong.status).toBe(401);
  });

  it("when new mail reaches the restored system, then it is stored beside the old and the webhook's delivery is signed with the secret sealed before the backup", async () => {
    const before = rx.hits.length;
    const reply = await sendMail((restored as System).ports.smtp, {
      from: "after@example.org",
      to: inbox.full_address,
      subject: "after the restore",
      text: "new",
    });
    expect(reply.data?.code).toBe(250);
    const list = await waitFor(
      async () => {
        const res = await restoredApi()<{ data: Email[] }>("GET", `/inboxes/${inbox.id}/emails`, { token: apiKey });
        return res.body.data?.length === 2 ? res.body.data : null;
      },
      { what: "the new mail on the restored system" },
    );
    expect(list.map((e) => e.subject).sort()).toEqual(["after the restore", "before the backup"]);
    // the restored dispatcher opened the sealed secret with the same key: the signature checks out
    const delivered = await waitFor(
      () =>
        rx
          .deliveries(hook.secret)
          .slice(before)
          .find((d) => d.event === "email.received"),
      { what: "the restored system's delivery", timeoutMs: 20_000 },
    );
    expect(delivered.body.data).toMatchObject({ inbox_id: inbox.id });
  });
});
