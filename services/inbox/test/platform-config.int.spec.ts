import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import nodemailer from "nodemailer";
import { EventType, RpcName, subjects, type PlatformSettingsReply, type SavedStorageConfig } from "@burnbox/contracts";
import { serveRpc } from "@burnbox/service-kit/messaging";
import { startInfra, type Infra } from "@burnbox/service-kit/runtime";
import { SecretBox } from "@burnbox/service-kit/security";
import { LogCapture, internalHeaders, makeActor, waitFor, type TestService } from "@burnbox/test-kit";
import { startIntake, type RunningIntake, type RunningService } from "../src/app";
import type { InboxConfig } from "../src/config";
import { startS3 } from "./s3-server";
import { serveTenancyStandIn } from "./tenancy-stand-in";
import { MIGRATIONS_DIR, startInboxTestService } from "./inbox-test-service";

const DOMAIN = "mail.live-config.example";
const KEY = "4d".repeat(32);

/**
 * The saved platform storage (tenancy) and settings (identity) reach a running inbox API and SMTP
 * intake through their change events: each process fetches the configuration over an RPC (the
 * secret key sealed) and switches without a restart.
 */
describe("inbox API and SMTP intake following the platform configuration", () => {
  let s3: Awaited<ReturnType<typeof startS3>>;
  let localPath: string;
  let t: TestService<InboxConfig, RunningService>;
  let intakeInfra: Infra;
  let intake: RunningIntake;
  let stops: Array<{ stop(): Promise<void> }> = [];
  const owner = makeActor();
  const orgId = randomUUID();
  const teamId = randomUUID();
  const assignmentId = randomUUID();
  // what tenancy and identity answer; null until the test saves something
  let savedStorage: SavedStorageConfig | null = null;
  let platform: PlatformSettingsReply = {
    max_sessions_per_user: 5,
    allow_registration: true,
    demo_enabled: null,
    default_inbox_ttl: null,
    max_inbox_ttl: null,
  };

  beforeAll(async () => {
    s3 = await startS3();
    localPath = await mkdtemp(path.join(tmpdir(), "bb-live-"));
    t = await startInboxTestService("inlive", {
      overrides: () => ({ storage: { provider: "local", local_path: localPath }, demo: { enabled: true }, encryption: { key: KEY } }),
    });
    const { infra, ns } = t;
    stops = [
      ...serveTenancyStandIn(infra, ns, { assignmentId, orgId, teamId, domain: DOMAIN, members: new Set([owner.user_id]) }),
      serveRpc(infra.nc, ns, RpcName.storageConfig, () => Promise.resolve({ storage: savedStorage }), infra.logger),
      serveRpc(infra.nc, ns, RpcName.platformSettings, () => Promise.resolve(platform), infra.logger),
    ];
    intakeInfra = await startInfra({
      config: t.config,
      database: { url: t.dbUrl, migrationsDir: MIGRATIONS_DIR },
      logDestination: new LogCapture(),
    });
    intake = await startIntake(t.config, intakeInfra);
  });

  afterAll(async () => {
    await intake?.stop();
    await intakeInfra?.close();
    await Promise.all(stops.map((s) => s.stop()));
    await t?.stop();
    await s3?.stop();
    if (localPath) await rm(localPath, { recursive: true, force: true });
  });

  const changed = async (type: typeof EventType.storageConfigChanged | typeof EventType.platformSettingsChanged) => {
    const event = { id: randomUUID(), type, version: 1, occurred_at: new Date().toISOString(), org_id: null, team_id: null, data: {} };
    await t.infra.js.publish(subjects(t.ns).event(type), JSON.stringify(event), { msgID: event.id });
  };

  const get = (p: string) =>
    fetch(`http://127.0.0.1:${t.service.port}/api/v1${p}`, { headers: internalHeaders(owner), redirect: "manual" });

  async function mailTo(address: string, inboxId: string, subject: string): Promise<string> {
    const mailer = nodemailer.createTransport({ host: "127.0.0.1", port: intake.smtpPort, secure: false, ignoreTLS: true });
    await mailer.sendMail({ from: "sender@example.org", to: address, subject, text: "hello" });
    const page = await t.call<{ data: Array<{ id: string; subject: string }> }>("GET", `/inboxes/${inboxId}/emails`, { actor: owner });
    return page.body.data.find((e) => e.subject === subject)?.id ?? "";
  }

  it("when S3 storage is saved, then new mail lands in S3 and mail stored before the switch stays readable", async () => {
    const inbox = await t.call<{ id: string; full_address: string }>("POST", "/inboxes", {
      actor: owner,
      body: { domain_assignment_id: assignmentId, alias: "switch" },
    });
    const before = await mailTo(inbox.body.full_address, inbox.body.id, "before");
    expect((await get(`/emails/${before}/raw`)).status).toBe(200);

    const endpoint = new URL(s3.settings.endpoint ?? "");
    savedStorage = {
      provider: "s3",
      local_path: null,
      endpoint: endpoint.host,
      bucket: s3.settings.bucket,
      region: "us-east-1",
      access_key: "S3RVER",
      use_ssl: false,
      secret_key_sealed: new SecretBox(KEY).seal("S3RVER"),
    };
    await changed(EventType.storageConfigChanged);
    const after = await waitFor(
      async () => {
        const id = await mailTo(inbox.body.full_address, inbox.body.id, `after ${randomUUID()}`);
        const raw = await get(`/emails/${id}/raw`);
        return raw.status === 302 ? raw : null;
      },
      { what: "new mail stored in S3" },
    );
    expect(new URL(after.headers.get("location") ?? "").host).toBe(endpoint.host);

    const old = await get(`/emails/${before}/raw`);
    expect(old.status).toBe(200);
    expect(await old.text()).toContain("Subject: before");
  });

  it("when the platform turns the demo off, then /try answers as off on the event; null hands it back to demo.enabled", async () => {
    expect(await (await get("/try/status")).json()).toEqual({ enabled: true });
    platform = { ...platform, demo_enabled: false };
    await changed(EventType.platformSettingsChanged);
    await waitFor(async () => ((await (await get("/try/status")).json()) as { enabled: boolean }).enabled === false, { what: "demo off" });
    expect(
      (await fetch(`http://127.0.0.1:${t.service.port}/api/v1/try/inbox`, { method: "POST", headers: internalHeaders(null) })).status,
    ).toBe(404);
    platform = { ...platform, demo_enabled: null };
    await changed(EventType.platformSettingsChanged);
    await waitFor(async () => ((await (await get("/try/status")).json()) as { enabled: boolean }).enabled, { what: "demo on" });
  });
});
