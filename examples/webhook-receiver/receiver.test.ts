// The receiver against a real webhook: BurnBox signs an email.received delivery, the receiver
// verifies it and hands it on; a forged or unsigned request is refused with 401.
import { BurnBox, type WebhookDelivery } from "@burnbox/sdk";
import nodemailer from "nodemailer";
import { exampleEnv, type ExampleEnv } from "../env";
import { startWebhookReceiver, type WebhookReceiver } from "./receiver";

describe("example: a webhook receiver verifying signatures", () => {
  let env: ExampleEnv;
  let bb: BurnBox;
  let receiver: WebhookReceiver;
  let hook: { id: string; secret: string };
  let team: { orgId: string; teamId: string };
  const waiting = new Map<string, (d: WebhookDelivery) => void>(); // inbox id -> resolve

  beforeAll(async () => {
    env = exampleEnv();
    // creating a webhook needs team.webhooks.manage on the key, and the team's ids
    team = env.team;
    bb = new BurnBox({ baseUrl: env.baseUrl, apiKey: env.apiKey });
    receiver = await startWebhookReceiver(
      () => hook.secret,
      (d) => waiting.get(String(d.data.inbox_id))?.(d),
    );
    const created = await bb.api.POST("/orgs/{orgId}/teams/{teamId}/webhooks", {
      params: { path: team },
      body: { url: receiver.url, events: ["email.received"] },
    });
    if (!created.data) throw new Error(`creating the webhook: ${created.response.status} ${JSON.stringify(created.error)}`);
    hook = created.data;
  });
  afterAll(async () => {
    if (hook)
      await bb.api.DELETE("/orgs/{orgId}/teams/{teamId}/webhooks/{webhookId}", { params: { path: { ...team, webhookId: hook.id } } });
    await receiver?.close();
  });

  it("verifies BurnBox's signed delivery of a received mail", async () => {
    const inbox = await bb.createInbox({ domain_assignment_id: env.domainAssignmentId, ttl: "15m" });
    const delivered = new Promise<WebhookDelivery>((resolve) => waiting.set(inbox.id, resolve));
    const mailer = nodemailer.createTransport({ host: env.smtp.host, port: env.smtp.port, secure: false, ignoreTLS: true });
    await mailer.sendMail({ from: "billing@shop.example", to: inbox.full_address, subject: "Your receipt", text: "Thanks!" });
    mailer.close();

    const delivery = await delivered;
    expect(delivery.event).toBe("email.received");
    expect(delivery.data).toMatchObject({ inbox_id: inbox.id, subject: "Your receipt" });
  });

  it("refuses a delivery that is unsigned, signed with another secret, or signed too long ago", async () => {
    const body = JSON.stringify({ id: "forged", event: "email.received", timestamp: new Date().toISOString(), data: {} });
    const post = (headers: Record<string, string>) =>
      fetch(receiver.url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });

    const unsigned = await post({});
    expect([unsigned.status, await unsigned.json()]).toEqual([401, { error: "missing_signature" }]);
    // the body-only signature no longer suffices: the send time must be signed too
    const bodyOnly = await post({ "x-service-signature": "ab".repeat(32) });
    expect([bodyOnly.status, await bodyOnly.json()]).toEqual([401, { error: "missing_signature" }]);
    const now = Math.floor(Date.now() / 1000);
    const forged = await post({ "x-service-signature-256": `t=${now},v1=${"ab".repeat(32)}` });
    expect([forged.status, await forged.json()]).toEqual([401, { error: "bad_signature" }]);
    const stale = await post({ "x-service-signature-256": `t=${now - 3600},v1=${"ab".repeat(32)}` });
    expect([stale.status, await stale.json()]).toEqual([401, { error: "stale_timestamp" }]);
  });
});
