import { createHmac, randomBytes, randomUUID } from "node:crypto";
import { waitFor } from "@burnbox/test-kit";
import { apiClient, openSocket, sendMail, WebhookReceiver } from "./clients";
import { SharedSystem } from "./shared-system";
import { createInbox, newClientIp, registerUser, teamWithDomain } from "./world";

/**
 * The walking skeleton end to end: register -> org -> team -> trusted domain -> assignment ->
 * inbox -> SMTP -> API listing -> WebSocket frame -> signed webhook.
 */
describe("one email through the whole system", () => {
  const system = SharedSystem.attach();
  const api = apiClient(system.gatewayUrl);
  let receiver: WebhookReceiver;

  beforeEach(async () => {
    receiver = await WebhookReceiver.start();
  });

  afterEach(async () => {
    await receiver.close();
  });

  it("when a message is sent to an inbox, then it is listed, pushed over WebSocket and delivered as a signed webhook", async () => {
    const world = await teamWithDomain(api);
    expect(world.domainStatus).toBe("verified");
    const hook = await api<{ id: string; secret: string }>("POST", `/orgs/${world.orgId}/teams/${world.teamId}/webhooks`, {
      token: world.owner.token,
      body: { url: receiver.url, events: ["email.received"] },
    });
    expect(hook.status).toBe(201);
    expect(hook.body.secret).toMatch(/^[0-9a-f]{64}$/);

    const inbox = await createInbox(api, world.owner.token, world.assignmentId, "journey");
    expect(inbox.full_address).toBe(`journey@${world.domainName}`);

    const ticket = await api<{ ticket: string; expires_in: number }>("POST", "/ws/ticket", { token: world.owner.token });
    expect(ticket.status).toBe(201);
    expect(ticket.body.expires_in).toBe(30);
    const socket = await openSocket(`${system.wsUrl}/api/v1/ws/inboxes/${inbox.id}?ticket=${ticket.body.ticket}`);

    const subject = `Hello ${randomBytes(4).toString("hex")}`;
    const sentAt = Date.now();
    const result = await sendMail(system.ports.smtp, {
      from: "sender@example.org",
      to: inbox.full_address,
      subject,
      text: "Your code is 123456",
    });
    expect(result.rcpt.code).toBe(250);
    expect(result.data?.code).toBe(250);

    const list = await waitFor(
      async () => {
        const r = await api<{ data: Array<{ id: string; subject: string; from_address: string }>; total: number }>(
          "GET",
          `/inboxes/${inbox.id}/emails`,
          {
            token: world.owner.token,
          },
        );
        return r.status === 200 && r.body.total === 1 ? r : null;
      },
      { what: "email listed" },
    );
    const summary = list.body.data[0];
    expect(summary).toMatchObject({ subject, from_address: "sender@example.org" });
    const email = await api<{ body_text: string; to_address: string }>("GET", `/emails/${summary?.id}`, { token: world.owner.token });
    expect(email.status).toBe(200);
    expect(email.body.body_text).toContain("123456");

    await waitFor(() => socket.frames.length > 0, { what: "WebSocket frame" });
    expect(socket.frames[0]).toMatchObject({ type: "email.received", data: { id: summary?.id, inbox_id: inbox.id, subject } });
    socket.ws.close();

    const delivery = await waitFor(() => receiver.received[0], { what: "webhook delivery", timeoutMs: 20_000 });
    const signature = createHmac("sha256", hook.body.secret).update(delivery.raw).digest("hex");
    expect(delivery.headers["x-service-signature"]).toBe(signature);
    expect(delivery.headers["x-service-event"]).toBe("email.received");
    expect(delivery.headers["x-service-delivery-id"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(Number(delivery.headers["x-service-timestamp"])).toBeGreaterThan(0);
    const body = JSON.parse(delivery.raw.toString("utf8")) as { id: string; event: string; data: Record<string, unknown> };
    expect(body).toMatchObject({ event: "email.received", data: { email_id: summary?.id, inbox_id: inbox.id, subject } });
    expect(body.id).toBe(delivery.headers["x-service-delivery-id"]);
    process.stdout.write(`e2e: SMTP accept -> webhook received in ${delivery.at - sentAt} ms\n`);
  });

  it("when mail is sent to an address with no active inbox, then RCPT is refused with 550", async () => {
    const world = await teamWithDomain(api);
    const result = await sendMail(system.ports.smtp, { from: "a@example.org", to: `nobody@${world.domainName}`, subject: "x", text: "x" });
    expect(result.rcpt.code).toBe(550);
    expect(result.data).toBeNull();
  });

  it("when an outsider asks for someone else's inbox, then it is not found, exactly like an unknown id, and its mail is not readable", async () => {
    const world = await teamWithDomain(api);
    const inbox = await createInbox(api, world.owner.token, world.assignmentId, "private-stuff");
    const outsider = await registerUser(api, "outsider");
    const unknownId = randomUUID();
    // contract notes: another tenant's resource answers exactly as an unknown id of the same kind, and an unknown inbox is 404
    for (const suffix of ["", "/emails"]) {
      const theirs = await api("GET", `/inboxes/${inbox.id}${suffix}`, { token: outsider.token });
      const unknown = await api("GET", `/inboxes/${unknownId}${suffix}`, { token: outsider.token });
      expect([suffix, theirs.status, theirs.body]).toEqual([suffix, 404, { error: expect.any(String), code: "not_found" }]);
      expect([suffix, theirs.status, theirs.body]).toEqual([suffix, unknown.status, unknown.body]);
    }
    const list = await api<{ data: unknown[] }>("GET", "/inboxes", { token: outsider.token });
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([]);
  });

  it("when any API response is returned, then it carries the rate-limit headers and errors use the envelope", async () => {
    const res = await api("POST", "/auth/login", {
      body: { email: "nobody@example.test", password: "wrong-Password-1" },
      headers: { "x-forwarded-for": newClientIp() },
    });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: "invalid email or password", code: "unauthenticated" });
    expect(res.headers.get("x-ratelimit-limit")).toBeTruthy();
    expect(res.headers.get("x-ratelimit-remaining")).toBeTruthy();
    expect(res.headers.get("x-ratelimit-reset")).toBeTruthy();
    const bad = await api("POST", "/orgs", { token: (await registerUser(api)).token, body: { name: "" } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: "validation_error" });
  });
});
