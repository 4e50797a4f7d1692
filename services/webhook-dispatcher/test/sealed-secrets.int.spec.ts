import { createHmac, randomBytes, randomUUID } from "node:crypto";
import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { RpcName } from "@burnbox/contracts";
import { createPool, ensureDatabase, runMigrations } from "@burnbox/service-kit/data";
import { publishEvent, serveRpc } from "@burnbox/service-kit/messaging";
import type { Infra } from "@burnbox/service-kit/runtime";
import { SecretBox } from "@burnbox/service-kit/security";
import {
  deleteNamespaceStreams,
  dropDatabase,
  makeActor,
  serviceClient,
  testDatabaseUrl,
  uniqueNamespace,
  waitFor,
} from "@burnbox/test-kit";
import { startService, type RunningService } from "../src/app";
import { emailReceivedEvent, startDispatcherInfra } from "./factories";

const KEY = "3c".repeat(32);
const MIGRATIONS = path.join(__dirname, "..", "prisma", "migrations");

interface Received {
  headers: IncomingHttpHeaders;
  raw: string;
}

async function receiver() {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, raw: Buffer.concat(chunks).toString("utf8") });
      res.end("ok");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    received,
    url: `http://localhost:${(server.address() as AddressInfo).port}/hook`,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** Every webhooks row as text, all columns, as `pg_dump` would print it. */
async function dumpWebhooks(dbUrl: string): Promise<string[]> {
  const db = createPool(dbUrl, 1);
  try {
    return (await db.query<{ row: string }>("SELECT row_to_json(w)::text AS row FROM webhooks w")).rows.map((r) => r.row);
  } finally {
    await db.end();
  }
}

/** A dispatcher on its own namespace and database, the authorize RPC answering yes for `lead` on the team. */
async function dispatcher(ns: string, dbUrl: string, key: string) {
  const started = await startDispatcherInfra(ns, dbUrl, {
    encryption: { key },
    defaults: { webhook_timeout: "1s", webhook_max_retries: 1 },
    delivery: { poll_interval: "50ms" },
  });
  const lead = makeActor();
  const rpc = serveRpc(
    started.infra.nc,
    ns,
    RpcName.authorize,
    async (req) => (req.actor.user_id === lead.user_id ? { allowed: true, reason: null } : { allowed: false, reason: "not_member" }),
    started.infra.logger,
  );
  const service = await startService(started.config, started.infra);
  return { infra: started.infra, service, rpc, lead, call: serviceClient(`http://127.0.0.1:${service.port}`) };
}

describe("webhook signing secrets at rest, on real Postgres", () => {
  const running: { infra: Infra; service: RunningService; rpc: { stop(): Promise<void> }; ns: string; dbUrl: string }[] = [];
  const receivers: { close(): Promise<void> }[] = [];
  const tmp: string[] = [];

  afterAll(async () => {
    for (const r of running) {
      await r.service.stop();
      await r.rpc.stop();
      await deleteNamespaceStreams(r.infra.nc, r.ns);
      await r.infra.close();
      await dropDatabase(r.dbUrl);
    }
    for (const r of receivers) await r.close();
    for (const d of tmp) rmSync(d, { recursive: true, force: true });
  });

  const settled = (service: RunningService, webhookId: string) =>
    waitFor(
      async () => {
        const row = await service.db.delivery.findFirst({ where: { webhookId } });
        return row && row.status !== "pending" ? row : null;
      },
      { what: "the delivery to settle" },
    );

  it("when a webhook is created, then no column of its row holds the secret, and deliveries are still signed with it", async () => {
    const ns = uniqueNamespace("whs");
    const dbUrl = testDatabaseUrl(`${ns}_webhooks`);
    const d = await dispatcher(ns, dbUrl, KEY);
    running.push({ ...d, ns, dbUrl });
    const orgId = randomUUID();
    const teamId = randomUUID();
    const rx = await receiver();
    receivers.push(rx);

    const res = await d.call<{ id: string; secret: string }>("POST", `/orgs/${orgId}/teams/${teamId}/webhooks`, {
      actor: d.lead,
      body: { url: rx.url, events: ["email.received"] },
    });
    expect(res.status).toBe(201);
    expect(res.body.secret).toMatch(/^[0-9a-f]{64}$/);

    const rows = await dumpWebhooks(dbUrl);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toContain(res.body.id);
    expect(rows[0]).not.toContain(res.body.secret);

    await publishEvent(d.infra.js, ns, emailReceivedEvent({ orgId, teamId }));
    expect((await settled(d.service, res.body.id)).status).toBe("succeeded");
    const hit = rx.received[0] as Received;
    expect(hit.headers["x-service-signature"]).toBe(createHmac("sha256", res.body.secret).update(hit.raw).digest("hex"));
  });

  it("when a plaintext secret of the previous release is there at start-up, then it is sealed and its deliveries still verify", async () => {
    const ns = uniqueNamespace("whm");
    const dbUrl = testDatabaseUrl(`${ns}_webhooks`);
    // the database as the previous release left it: the migrations up to 0003 and a row holding its secret in clear
    const before = mkdtempSync(path.join(tmpdir(), "whm-"));
    tmp.push(before);
    for (const name of readdirSync(MIGRATIONS).filter((n) => n <= "0003_trace_parent")) {
      cpSync(path.join(MIGRATIONS, name), path.join(before, name), { recursive: true });
    }
    await ensureDatabase(dbUrl);
    await runMigrations(dbUrl, before);
    const orgId = randomUUID();
    const teamId = randomUUID();
    const hookId = randomUUID();
    const secret = randomBytes(32).toString("hex");
    const rx = await receiver();
    receivers.push(rx);
    const db = createPool(dbUrl, 1);
    await db.query(
      `INSERT INTO webhooks (id, org_id, team_id, created_by, url, events, secret, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, now())`,
      [hookId, orgId, teamId, randomUUID(), rx.url, ["email.received"], secret],
    );
    await db.end();
    expect((await dumpWebhooks(dbUrl))[0]).toContain(secret);

    const d = await dispatcher(ns, dbUrl, KEY);
    running.push({ ...d, ns, dbUrl });

    const rows = await dumpWebhooks(dbUrl);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toContain(hookId);
    expect(rows[0]).not.toContain(secret);
    const row = JSON.parse(rows[0] as string) as { secret: string | null; secret_sealed: string };
    expect(row.secret).toBeNull();
    expect(new SecretBox(KEY).open(row.secret_sealed)).toBe(secret);

    await publishEvent(d.infra.js, ns, emailReceivedEvent({ orgId, teamId }));
    expect((await settled(d.service, hookId)).status).toBe("succeeded");
    const hit = rx.received[0] as Received;
    expect(hit.headers["x-service-signature"]).toBe(createHmac("sha256", secret).update(hit.raw).digest("hex"));
  });

  it("when no encryption key is configured, then creating a webhook is refused with a 400 and stores nothing", async () => {
    const ns = uniqueNamespace("whn");
    const dbUrl = testDatabaseUrl(`${ns}_webhooks`);
    const d = await dispatcher(ns, dbUrl, "");
    running.push({ ...d, ns, dbUrl });
    const res = await d.call<{ code?: string; error?: string }>("POST", `/orgs/${randomUUID()}/teams/${randomUUID()}/webhooks`, {
      actor: d.lead,
      body: { url: "http://localhost:9/hook", events: ["email.received"] },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("validation_error");
    expect(res.body.error).toMatch(/encryption\.key/);
    expect(await dumpWebhooks(dbUrl)).toEqual([]);
  });
});
