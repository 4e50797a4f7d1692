import { randomUUID } from "node:crypto";
import nodemailer from "nodemailer";
import { startInfra, type Infra } from "@burnbox/service-kit/runtime";
import { LogCapture, internalHeaders, makeActor, type TestService } from "@burnbox/test-kit";
import { startIntake, type RunningIntake, type RunningService } from "../src/app";
import { loadInboxConfig, type InboxConfig } from "../src/config";
import { S3Storage } from "../src/adapters/s3-storage";
import { startS3 } from "./s3-server";
import { serveTenancyStandIn } from "./tenancy-stand-in";
import { MIGRATIONS_DIR, startInboxTestService } from "./inbox-test-service";

const DOMAIN = "mail.s3-test.example";

/**
 * With `storage.provider: s3`, an inbox API process and an SMTP intake process that share nothing
 * but Postgres, NATS and the object store serve each other's mail; downloads are presigned redirects.
 */
describe("inbox API and SMTP intake on S3 storage", () => {
  let s3: Awaited<ReturnType<typeof startS3>>;
  let t: TestService<InboxConfig, RunningService>;
  let intakeInfra: Infra;
  let intake: RunningIntake;
  let stops: Array<{ stop(): Promise<void> }> = [];
  const owner = makeActor();
  const outsider = makeActor();
  const orgId = randomUUID();
  const teamId = randomUUID();
  const assignmentId = randomUUID();

  beforeAll(async () => {
    s3 = await startS3();
    t = await startInboxTestService("ins3", {
      // a local path that must stay unused: the bytes live in the object store only
      overrides: () => ({ storage: { provider: "s3", local_path: "/nonexistent/api", s3: s3.settings } }),
    });
    const { infra, ns } = t;
    stops = serveTenancyStandIn(infra, ns, { assignmentId, orgId, teamId, domain: DOMAIN, members: new Set([owner.user_id]) });
    // the intake: its own process in production, here its own connections and its own (unused) local path
    const intakeConfig = loadInboxConfig({}, { ...t.config, storage: { ...t.config.storage, local_path: "/nonexistent/intake" } });
    intakeInfra = await startInfra({
      config: intakeConfig,
      database: { url: t.dbUrl, migrationsDir: MIGRATIONS_DIR },
      logDestination: new LogCapture(),
    });
    intake = await startIntake(intakeConfig, intakeInfra);
  });

  afterAll(async () => {
    await intake?.stop();
    await intakeInfra?.close();
    await Promise.all(stops.map((s) => s.stop()));
    await t?.stop();
    await s3?.stop();
  });

  const get = (p: string, actor = owner) =>
    fetch(`http://127.0.0.1:${t.service.port}/api/v1${p}`, { headers: internalHeaders(actor), redirect: "manual" });

  /** The one email of an inbox: the intake answers 250 only once it is stored, so no waiting is needed. */
  async function receivedEmail(inboxId: string) {
    const page = await t.call<{ data: Array<{ id: string }> }>("GET", `/inboxes/${inboxId}/emails`, { actor: owner });
    const id = page.body.data[0]?.id ?? "";
    return (await t.call<{ id: string; attachments: Array<{ id: string; filename: string }> }>("GET", `/emails/${id}`, { actor: owner }))
      .body;
  }

  it("when mail taken in by the intake is downloaded from the API, then it redirects to a 15-minute presigned URL serving the exact bytes", async () => {
    const inbox = await t.call<{ id: string; full_address: string }>("POST", "/inboxes", {
      actor: owner,
      body: { domain_assignment_id: assignmentId, alias: "s3-files" },
    });
    expect(inbox.status).toBe(201);
    const content = Buffer.from("quarterly numbers\n");
    const mailer = nodemailer.createTransport({ host: "127.0.0.1", port: intake.smtpPort, secure: false, ignoreTLS: true });
    const info = await mailer.sendMail({
      from: "sender@example.org",
      to: inbox.body.full_address,
      subject: "numbers",
      text: "attached",
      attachments: [{ filename: "numbers.txt", content, contentType: "text/plain" }],
    });
    expect(info.accepted).toHaveLength(1);
    const email = await receivedEmail(inbox.body.id);
    const attachment = email.attachments[0];
    expect(attachment?.filename).toBe("numbers.txt");

    const res = await get(`/emails/${email.id}/attachments/${attachment?.id ?? ""}`);
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get("location") ?? "");
    expect(location.origin).toBe(s3.settings.endpoint);
    expect(location.searchParams.get("X-Amz-Expires")).toBe("900");
    const object = await fetch(location);
    expect(object.status).toBe(200);
    expect(object.headers.get("content-disposition")).toBe('attachment; filename="numbers.txt"');
    expect(Buffer.from(await object.arrayBuffer()).equals(content)).toBe(true);

    const raw = await get(`/emails/${email.id}/raw`);
    expect(raw.status).toBe(302);
    const message = await fetch(raw.headers.get("location") ?? "");
    expect(message.headers.get("content-type")).toBe("message/rfc822");
    expect(await message.text()).toContain("Subject: numbers");

    expect((await get(`/emails/${email.id}/attachments/${attachment?.id ?? ""}`, outsider)).status).toBe(404);
  });

  it("when an inbox on S3 is deleted, then its objects are removed from the store", async () => {
    const inbox = await t.call<{ id: string; full_address: string }>("POST", "/inboxes", {
      actor: owner,
      body: { domain_assignment_id: assignmentId, alias: "s3-delete" },
    });
    const mailer = nodemailer.createTransport({ host: "127.0.0.1", port: intake.smtpPort, secure: false, ignoreTLS: true });
    await mailer.sendMail({ from: "sender@example.org", to: inbox.body.full_address, subject: "bye", text: "x" });
    const email = await receivedEmail(inbox.body.id);
    const store = new S3Storage(s3.settings);
    try {
      expect(await store.open(`${inbox.body.id}/${email.id}/message.eml`)).not.toBeNull();
      expect((await t.call("DELETE", `/inboxes/${inbox.body.id}`, { actor: owner })).status).toBe(204);
      expect(await store.open(`${inbox.body.id}/${email.id}/message.eml`)).toBeNull();
    } finally {
      store.close();
    }
  });
});
