import { randomBytes } from "node:crypto";
import type * as Sdk from "@burnbox/sdk";
import type { BurnBox, BurnBoxError, InboxFrame, WaitTimeoutError } from "@burnbox/sdk";
import { WebSocket } from "ws";
import { waitFor } from "@burnbox/test-kit";
import { apiClient, sendMail } from "./clients";
import { buildClientPackages } from "./client-packages";
import { SharedSystem } from "./shared-system";
import { Receiver, createHook } from "./webhook-kit";
import { teamWithDomain } from "./world";

/** @burnbox/sdk (compiled, as it ships) against the shared system: HTTP, WebSocket, SMTP and a webhook receiver. */
describe("@burnbox/sdk against the system", () => {
  const system = SharedSystem.attach();
  const api = apiClient(system.gatewayUrl);
  let world: Awaited<ReturnType<typeof teamWithDomain>>;
  let bb: BurnBox;
  // loaded after buildClientPackages(), so the tests run the SDK compiled from the current sources
  let sdk: typeof Sdk;
  const alias = (label: string) => `${label}-${randomBytes(3).toString("hex")}`;

  beforeAll(async () => {
    buildClientPackages();
    sdk = await import("@burnbox/sdk");
    world = await teamWithDomain(api);
    // ws on Node 20 (no global WebSocket); Node 22+ and browsers need no option
    bb = new sdk.BurnBox({ baseUrl: system.gatewayUrl, token: world.owner.token, WebSocket });
  });

  const mail = (to: string, subject: string, text: string) =>
    sendMail(system.ports.smtp, { from: "noreply@acme.example", to, subject, text }).then((r) => {
      if (r.data?.code !== 250) throw new Error(`SMTP: ${JSON.stringify(r)}`);
    });

  it("when an inbox is created and a mail sent over SMTP, then the SDK lists it and reads it", async () => {
    const inbox = await bb.createInbox({ domain_assignment_id: world.assignmentId, alias: alias("sdk") });
    expect(inbox.full_address).toBe(`${inbox.address}@${world.domainName}`);
    await mail(inbox.full_address, "Welcome aboard", "Hello from the SDK test");

    const page = await waitFor(async () => {
      const p = await bb.listEmails(inbox.id);
      return p.data.length === 1 ? p : null;
    });
    expect(page.data[0]).toMatchObject({ subject: "Welcome aboard", from_address: "noreply@acme.example" });
    const email = await bb.getEmail(page.data[0]!.id);
    expect(email.body_text).toContain("Hello from the SDK test");
    expect((await bb.listInboxes({ q: inbox.address })).data.map((i) => i.id)).toContain(inbox.id);
  });

  it("when an API key is used, then it authenticates; when an id is unknown, then BurnBoxError carries 404 not_found", async () => {
    const key = await api<{ raw_key: string }>("POST", `/orgs/${world.orgId}/teams/${world.teamId}/api-keys`, {
      token: world.owner.token,
      body: { name: alias("sdk"), scopes: ["team.inboxes.view", "team.inboxes.manage", "team.emails.view"] },
    });
    expect(key.status).toBe(201);
    const withKey = new sdk.BurnBox({ baseUrl: `${system.gatewayUrl}/api/v1`, apiKey: key.body.raw_key });
    await expect(withKey.listInboxes()).resolves.toMatchObject({ page: 1 });
    const err = (await withKey.getEmail("0193a0c4-0000-7000-8000-000000000000").catch((e: unknown) => e)) as BurnBoxError;
    expect(err).toBeInstanceOf(sdk.BurnBoxError);
    expect(err).toMatchObject({ status: 404, code: "not_found" });
    const anonymous = new sdk.BurnBox({ baseUrl: system.gatewayUrl });
    await expect(anonymous.listInboxes()).rejects.toMatchObject({ status: 401, code: "unauthenticated" });
  });

  it("when a mail arrives while stream() is open, then it yields the email.received frame", async () => {
    const inbox = await bb.createInbox({ domain_assignment_id: world.assignmentId, alias: alias("live") });
    const live = bb.stream(inbox.id);
    await live.ready;
    await mail(inbox.full_address, "Live one", "streamed");
    let frame: InboxFrame | undefined;
    for await (const f of live) {
      frame = f;
      if (f.type === "email.received") break;
    }
    expect(frame).toMatchObject({ type: "email.received", data: { inbox_id: inbox.id, subject: "Live one" } });

    const ended = bb.stream(inbox.id);
    await ended.ready;
    await bb.deleteInbox(inbox.id);
    const rest: InboxFrame[] = [];
    for await (const f of ended) rest.push(f);
    expect(rest.map((f) => f.type)).toContain("inbox.deleted");
    expect(ended.closeCode).toBe(1000);
  });

  it("when a webhook delivers email.received to a local receiver, then verifyWebhook accepts it and refuses it altered", async () => {
    const rx = await Receiver.start();
    try {
      const hook = await createHook(api, world, rx.url, ["email.received"]);
      const inbox = await bb.createInbox({ domain_assignment_id: world.assignmentId, alias: alias("hook") });
      await mail(inbox.full_address, "Signed delivery", "sign me");
      const hit = await waitFor(async () => rx.hits[0] ?? null, { what: "a delivery", timeoutMs: 15_000 });

      const delivery = await sdk.verifyWebhook(hook.secret, hit.headers, hit.raw);
      expect(delivery).toMatchObject({ event: "email.received", id: hit.headers["x-service-delivery-id"] });
      expect(delivery.data).toMatchObject({ inbox_id: inbox.id, subject: "Signed delivery" });
      await expect(sdk.verifyWebhook("0".repeat(64), hit.headers, hit.raw)).rejects.toMatchObject({
        reason: "bad_signature",
      });
      const altered = Buffer.from(hit.raw.toString("utf8").replace("Signed delivery", "Signed deliverx"));
      await expect(sdk.verifyWebhook(hook.secret, hit.headers, altered)).rejects.toMatchObject({
        reason: "bad_signature",
      });
      await expect(sdk.verifyWebhook(hook.secret, hit.headers, hit.raw, { now: () => Date.now() + 600_000 })).rejects.toMatchObject({
        reason: "stale_timestamp",
      });
    } finally {
      await rx.close();
    }
  });

  describe("waiting (extensions section 1)", () => {
    it("when a wait is started before the mail, then waitForEmail answers with it and waitForCode gives its code", async () => {
      const inbox = await bb.createInbox({ domain_assignment_id: world.assignmentId, alias: alias("wait") });
      // a letter first: an all-digit run id next to "verification code" would itself be a code
      const run = `t${randomBytes(4).toString("hex")}`;
      const waiting = bb.waitForEmail(inbox.id, { subject: `run ${run}`, timeout: "10s" });
      const started = Date.now();
      await mail(inbox.full_address, `Your verification code, run ${run}`, "Your verification code is 482913.");
      const result = await waiting;
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(result).toMatchObject({ matched: 1, timed_out: false });
      expect(result.data[0]).toMatchObject({ subject: `Your verification code, run ${run}` });
      expect(await bb.waitForCode(inbox.id, { subject: `run ${run}`, timeout: "5s" })).toBe("482913");
    });

    it("when no mail matches, then wait() answers timed_out and waitForEmail rejects with WaitTimeoutError", async () => {
      const inbox = await bb.createInbox({ domain_assignment_id: world.assignmentId, alias: alias("none") });
      const raw = await bb.wait(inbox.id, { subject: "never sent", timeout: 300 });
      expect(raw).toEqual({ data: [], matched: 0, timed_out: true });
      const err = await bb.waitForEmail(inbox.id, { subject: "never sent", timeout: "300ms" }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(sdk.WaitTimeoutError);
      expect((err as WaitTimeoutError).result.timed_out).toBe(true);
      await expect(bb.wait(inbox.id, { count: 101 })).rejects.toMatchObject({ status: 400, code: "validation_error" });
    });

    it("when the mail holds a link, then waitForLink gives the URL of the kind asked for", async () => {
      const inbox = await bb.createInbox({ domain_assignment_id: world.assignmentId, alias: alias("link") });
      await mail(inbox.full_address, "Confirm your account", "Confirm: https://app.acme.example/verify?token=abc123\n");
      expect(await bb.waitForLink(inbox.id, { kind: "verify", timeout: "5s" })).toBe("https://app.acme.example/verify?token=abc123");
    });
  });
});
