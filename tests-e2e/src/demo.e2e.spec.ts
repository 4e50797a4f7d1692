import { randomBytes } from "node:crypto";
import { waitFor } from "@burnbox/test-kit";
import { apiClient, sendMail } from "./clients";
import { DEMO_DOMAIN, SharedSystem } from "./shared-system";
import { createInbox, newClientIp, roomInWindow, teamWithDomain } from "./world";

interface DemoInboxBody {
  inbox_id: string;
  address: string;
  expires_at: string;
}
interface SummaryPage {
  data: Array<{ id: string; subject: string; from_address: string; is_read: boolean }>;
  total: number;
}

/** The public demo (contract notes, "Inboxes and mail"): on in the shared system, 10 inboxes per IP and hour. */
describe("the public demo through the gateway and SMTP", () => {
  const system = SharedSystem.attach();
  const api = apiClient(system.gatewayUrl);
  const from = (ip: string) => ({ headers: { "x-forwarded-for": ip } });

  const createDemo = (ip: string) => api<DemoInboxBody>("POST", "/try/inbox", from(ip));

  it("when the status is asked without credentials, then the demo says it is enabled", async () => {
    const res = await api("GET", "/try/status", from(newClientIp()));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ enabled: true });
  });

  it("when a demo inbox is created without credentials, then it lives on the demo domain for the demo TTL (10m)", async () => {
    const before = Date.now();
    const res = await createDemo(newClientIp());
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      inbox_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      address: expect.stringMatching(new RegExp(`^[a-z0-9]{10}@${DEMO_DOMAIN.replace(/\./g, "\\.")}$`)),
      expires_at: expect.any(String),
    });
    const ttl = Date.parse(res.body.expires_at) - before;
    expect(ttl).toBeGreaterThan(590_000);
    expect(ttl).toBeLessThanOrEqual(600_000 + (Date.now() - before));
  });

  it("when mail is sent to a demo inbox, then anyone with its id lists it without authentication", async () => {
    const ip = newClientIp();
    const demo = (await createDemo(ip)).body;
    const subject = `demo ${randomBytes(3).toString("hex")}`;
    const sent = await sendMail(system.ports.smtp, { from: "someone@example.org", to: demo.address, subject, text: "hello demo" });
    expect(sent.data?.code).toBe(250);
    const page = await waitFor(
      async () => {
        const res = await api<SummaryPage>("GET", `/try/inbox/${demo.inbox_id}/emails`, from(ip));
        return res.status === 200 && res.body.total === 1 ? res.body : null;
      },
      { what: "the demo email listed" },
    );
    expect(page.data).toEqual([expect.objectContaining({ subject, from_address: "someone@example.org", is_read: false })]);
  });

  it("when a team's inbox id or an unknown id is asked through /try, then both are the same 404", async () => {
    const world = await teamWithDomain(api);
    const inbox = await createInbox(api, world.owner.token, world.assignmentId, `notdemo-${randomBytes(3).toString("hex")}`);
    const ip = newClientIp();
    const team = await api("GET", `/try/inbox/${inbox.id}/emails`, from(ip));
    const unknown = await api("GET", "/try/inbox/7d3e2f0a-1b2c-4d5e-8f90-123456789abc/emails", from(ip));
    expect(team.status).toBe(404);
    expect(team.body).toEqual({ error: "inbox not found", code: "not_found" });
    expect(unknown.body).toEqual(team.body);
  });

  it("when a demo inbox is asked through the tenant routes, then even a signed-in user gets 404", async () => {
    const world = await teamWithDomain(api);
    const demo = (await createDemo(newClientIp())).body;
    const res = await api("GET", `/inboxes/${demo.inbox_id}`, { token: world.owner.token });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: "inbox not found", code: "not_found" });
  });

  it("when one IP has created 10 demo inboxes this hour, then the 11th is 429 with Retry-After and the 7.2 body, and another IP still may", async () => {
    const ip = newClientIp();
    await roomInWindow(3_600_000, 10_000); // all eleven in one hour window
    for (let i = 0; i < 10; i++) expect((await createDemo(ip)).status).toBe(201);
    const refused = await createDemo(ip);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: expect.any(String), retry_after: expect.any(Number) });
    const retryAfter = (refused.body as unknown as { retry_after: number }).retry_after;
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(refused.headers.get("retry-after")).toBe(String(retryAfter));
    expect((await createDemo(newClientIp())).status).toBe(201);
  });

  it("when a /try request is malformed, then it is a 400 in the envelope", async () => {
    const res = await api("GET", "/try/inbox/not-a-uuid/emails", from(newClientIp()));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "validation_error" });
  });
});
