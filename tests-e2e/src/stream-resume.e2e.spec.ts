import { randomBytes } from "node:crypto";
import { waitFor } from "@burnbox/test-kit";
import { apiClient, openSocket, sendMail } from "./clients";
import { SharedSystem } from "./shared-system";
import { createInbox, teamWithDomain } from "./world";

/** A resumed inbox stream (README "Resuming an inbox stream"): frames carry their event id; `last_event_id` replays what was missed. */
describe("resuming an inbox stream through the gateway", () => {
  const system = SharedSystem.attach();
  const api = apiClient(system.gatewayUrl);
  let world: Awaited<ReturnType<typeof teamWithDomain>>;

  beforeAll(async () => {
    world = await teamWithDomain(api);
  });

  const socket = async (inboxId: string, lastEventId?: string) => {
    const ticket = await api<{ ticket: string }>("POST", "/ws/ticket", { token: world.owner.token });
    const resume = lastEventId ? `&last_event_id=${lastEventId}` : "";
    return openSocket(`${system.wsUrl}/api/v1/ws/inboxes/${inboxId}?ticket=${ticket.body.ticket}${resume}`);
  };
  const mail = async (to: string, subject: string) => {
    const sent = await sendMail(system.ports.smtp, { from: "sender@example.org", to, subject, text: subject });
    if (sent.data?.code !== 250) throw new Error(`SMTP: ${JSON.stringify(sent)}`);
  };
  const subjects = (frames: Array<{ type: string; data: Record<string, unknown> }>) =>
    frames.map((f) => (f.type === "email.received" ? String(f.data.subject) : f.type));

  it("when a client disconnects, mail arrives over SMTP, and it reconnects with the last id, then it gets exactly the missed mail, then live mail", async () => {
    const inbox = await createInbox(api, world.owner.token, world.assignmentId, `resume-${randomBytes(3).toString("hex")}`);
    const first = await socket(inbox.id);
    await mail(inbox.full_address, "before");
    await waitFor(() => first.frames.length === 1, { what: "the first frame" });
    const lastSeen = (first.frames[0] as { id?: string }).id;
    expect(lastSeen).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const closed = new Promise<void>((resolve) => first.ws.once("close", () => resolve()));
    first.ws.close();
    await closed;

    await mail(inbox.full_address, "missed 1");
    await mail(inbox.full_address, "missed 2");
    await mail(inbox.full_address, "missed 3");
    const resumed = await socket(inbox.id, lastSeen);
    await waitFor(() => resumed.frames.length === 3, { what: "the missed frames" });
    await mail(inbox.full_address, "live");
    await waitFor(() => resumed.frames.length === 4, { what: "the live frame" });
    expect(subjects(resumed.frames)).toEqual(["missed 1", "missed 2", "missed 3", "live"]);
    const listed = await api<{ data: Array<{ id: string }> }>("GET", `/inboxes/${inbox.id}/emails?per_page=10`, {
      token: world.owner.token,
    });
    expect(new Set(resumed.frames.map((f) => f.data.id))).toEqual(
      new Set(listed.body.data.map((e) => e.id).filter((id) => id !== first.frames[0]!.data.id)),
    );
    resumed.ws.close();
  });

  it("when the id is not one of the inbox's recent events, then the first frame is resync_required", async () => {
    const inbox = await createInbox(api, world.owner.token, world.assignmentId, `resync-${randomBytes(3).toString("hex")}`);
    const unknown = "0193a0c4-0000-7000-8000-000000000000";
    const resumed = await socket(inbox.id, unknown);
    await waitFor(() => resumed.frames.length === 1, { what: "the resync frame" });
    expect(resumed.frames[0]).toEqual({
      type: "resync_required",
      data: { inbox_id: inbox.id, last_event_id: unknown, reason: "not_in_window" },
    });
    resumed.ws.close();
  });
});
