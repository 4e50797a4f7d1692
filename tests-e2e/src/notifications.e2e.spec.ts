import { randomBytes, randomUUID } from "node:crypto";
import { WebSocket } from "ws";
import { waitFor } from "@burnbox/test-kit";
import { apiClient, openSocket, sendMail } from "./clients";
import { SharedSystem } from "./shared-system";
import { createInbox, registerUser, teamWithDomain } from "./world";

interface Notification {
  id: string;
  type: string;
  title: string;
  message: string;
  data: Record<string, unknown>;
  is_read: boolean;
  created_at: string;
}
interface Page {
  data: Notification[];
  total: number;
  page: number;
  per_page: number;
  total_pages: number;
}

/** Notifications through the public ports: stored from events, listed, changed, and pushed on /ws/notifications. */
describe("notifications", () => {
  const system = SharedSystem.attach();
  const api = apiClient(system.gatewayUrl);

  const list = (token: string, query = "") => api<Page>("GET", `/notifications${query}`, { token });
  const ticketOf = async (token: string) => (await api<{ ticket: string }>("POST", "/ws/ticket", { token })).body.ticket;
  const streamOf = async (token: string) => openSocket(`${system.wsUrl}/api/v1/ws/notifications?ticket=${await ticketOf(token)}`);

  /** A user with an inbox of their own, once its inbox.created notification is stored. */
  async function userWithInbox() {
    const world = await teamWithDomain(api);
    const inbox = await createInbox(api, world.owner.token, world.assignmentId, `n-${randomBytes(3).toString("hex")}`);
    await waitFor(async () => (await list(world.owner.token)).body.data.some((n) => n.type === "inbox.created"), {
      what: "inbox.created notification",
    });
    return { ...world, inbox };
  }

  /** Sends `count` mails to the inbox and waits until their notifications are listed. */
  async function mailsTo(world: Awaited<ReturnType<typeof userWithInbox>>, count: number) {
    const before = (await list(world.owner.token)).body.total;
    for (let i = 0; i < count; i++) {
      const sent = await sendMail(system.ports.smtp, {
        from: "sender@example.org",
        to: world.inbox.full_address,
        subject: `m${i}`,
        text: "x",
      });
      expect(sent.data?.code).toBe(250);
    }
    await waitFor(async () => (await list(world.owner.token)).body.total === before + count, { what: "email notifications" });
  }

  it("when a mail reaches a user's inbox, then exactly one email.received notification is stored and framed on their socket within 1 s", async () => {
    const world = await userWithInbox();
    const created = (await list(world.owner.token)).body.data.find((n) => n.type === "inbox.created");
    expect(created).toMatchObject({ data: { inbox_id: world.inbox.id, full_address: world.inbox.full_address }, is_read: false });

    const socket = await streamOf(world.owner.token);
    const subject = `Invoice ${randomBytes(3).toString("hex")}`;
    const sent = await sendMail(system.ports.smtp, { from: "billing@example.org", to: world.inbox.full_address, subject, text: "hello" });
    const acceptedAt = Date.now();
    expect(sent.data?.code).toBe(250);
    await waitFor(() => socket.frames.length > 0, { what: "notification frame", timeoutMs: 5000 });
    expect(Date.now() - acceptedAt).toBeLessThan(1000);

    const stored = (await list(world.owner.token)).body.data.filter((n) => n.type === "email.received");
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      title: "New email",
      message: `From billing@example.org: ${subject}`,
      data: { inbox_id: world.inbox.id, from: "billing@example.org", subject },
      is_read: false,
    });
    expect(socket.frames).toEqual([{ type: "email.received", data: stored[0] }]);
    socket.ws.close();
  });

  it("when a user opens a sixth notification socket, then it is closed with 4429 while the five others stay open", async () => {
    const user = await registerUser(api, "sockets");
    const five = [];
    for (let i = 0; i < 5; i++) five.push(await streamOf(user.token));
    const sixth = await streamOf(user.token);
    const code = await new Promise<number>((r) => {
      if (sixth.ws.readyState === WebSocket.CLOSED) r(-1);
      sixth.ws.once("close", (c) => r(c));
    });
    expect(code).toBe(4429);
    expect(five.every((s) => s.ws.readyState === WebSocket.OPEN)).toBe(true);
    for (const s of five) s.ws.close();
  });

  it("when a user lists with unread=true and pages, then they get their unread ones, newest first, in the envelope", async () => {
    const world = await userWithInbox();
    await mailsTo(world, 2);
    const page = await list(world.owner.token, "?unread=true&per_page=2");
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ total: 3, page: 1, per_page: 2, total_pages: 2 });
    expect(page.body.data.map((n) => n.message)).toEqual(["From sender@example.org: m1", "From sender@example.org: m0"]);
    expect((await list(world.owner.token, "?unread=yes")).status).toBe(400);
    expect((await list(world.owner.token, "?per_page=101")).status).toBe(400);
  });

  it("when a user marks one read, then marks all, then it is read and the rest are counted in {marked}", async () => {
    const world = await userWithInbox();
    await mailsTo(world, 2);
    const [newest] = (await list(world.owner.token)).body.data;
    const read = await api<Notification>("PATCH", `/notifications/${newest!.id}/read`, { token: world.owner.token });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: newest!.id, is_read: true });
    expect((await list(world.owner.token, "?unread=true")).body.total).toBe(2);

    const all = await api("POST", "/notifications/mark-all-read", { token: world.owner.token });
    expect(all.status).toBe(200);
    expect(all.body).toEqual({ marked: 2 });
    expect((await list(world.owner.token, "?unread=true")).body.total).toBe(0);
  });

  it("when a user deletes one and then all, then 204 each and their list empties", async () => {
    const world = await userWithInbox();
    await mailsTo(world, 1);
    const [first] = (await list(world.owner.token)).body.data;
    const one = await api("DELETE", `/notifications/${first!.id}`, { token: world.owner.token });
    expect(one.status).toBe(204);
    expect(one.body).toBeNull();
    expect((await list(world.owner.token)).body.data.map((n) => n.id)).not.toContain(first!.id);
    expect((await list(world.owner.token)).body.total).toBe(1);

    const all = await api("DELETE", "/notifications", { token: world.owner.token });
    expect(all.status).toBe(204);
    expect((await list(world.owner.token)).body).toMatchObject({ data: [], total: 0 });
  });

  it("when another user reads, marks or deletes someone's notification, then 404 as for an unknown id, and nothing changes", async () => {
    const world = await userWithInbox();
    const stranger = await registerUser(api, "stranger");
    const [theirs] = (await list(world.owner.token)).body.data;
    for (const id of [theirs!.id, randomUUID()]) {
      const mark = await api("PATCH", `/notifications/${id}/read`, { token: stranger.token });
      expect(mark.status).toBe(404);
      expect(mark.body).toEqual({ error: expect.any(String), code: "not_found" });
      expect((await api("DELETE", `/notifications/${id}`, { token: stranger.token })).status).toBe(404);
    }
    expect((await api("POST", "/notifications/mark-all-read", { token: stranger.token })).body).toEqual({ marked: 0 });
    expect((await api("DELETE", "/notifications", { token: stranger.token })).status).toBe(204);
    expect((await list(stranger.token)).body.total).toBe(0);
    const after = (await list(world.owner.token)).body.data;
    expect(after).toEqual([{ ...theirs, is_read: false }]);
  });

  it("when an API key calls the notification operations, then 403 and nothing changes", async () => {
    const world = await userWithInbox();
    const key = await api<{ raw_key: string }>("POST", `/orgs/${world.orgId}/teams/${world.teamId}/api-keys`, {
      token: world.owner.token,
      body: { name: "ci", scopes: ["team.inboxes.view", "team.emails.view", "team.emails.manage"] },
    });
    expect(key.status).toBe(201);
    const [mine] = (await list(world.owner.token)).body.data;
    const calls: Array<[string, string]> = [
      ["GET", "/notifications"],
      ["PATCH", `/notifications/${mine!.id}/read`],
      ["POST", "/notifications/mark-all-read"],
      ["DELETE", `/notifications/${mine!.id}`],
      ["DELETE", "/notifications"],
    ];
    for (const [method, path] of calls) expect((await api(method, path, { token: key.body.raw_key })).status).toBe(403);
    expect((await list(world.owner.token)).body.data).toEqual([mine]);
  });

  it("when nobody is signed in, then the operations answer 401 and the stream refuses a bad ticket", async () => {
    expect((await api("GET", "/notifications")).status).toBe(401);
    await expect(openSocket(`${system.wsUrl}/api/v1/ws/notifications?ticket=${randomUUID()}`)).rejects.toThrow("upgrade refused: 401");
  });
});
