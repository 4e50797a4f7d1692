import { linkOf, notificationsSocketUrl, parseFrame, reconnectDelayMs } from "./frames";

describe("the notification stream's rules", () => {
  it("when the SDK's base URL is absolute or relative, then the socket URL is ws(s) on the same host with the ticket", () => {
    expect(notificationsSocketUrl("https://bb.example.com/api/v1", "t-1", "https://bb.example.com/inboxes")).toBe(
      "wss://bb.example.com/api/v1/ws/notifications?ticket=t-1",
    );
    expect(notificationsSocketUrl("/api/v1/", "a b", "http://127.0.0.1:8080/notifications?page=2")).toBe(
      "ws://127.0.0.1:8080/api/v1/ws/notifications?ticket=a+b",
    );
  });

  it("when a drop repeats, then the wait doubles from 1 s up to 30 s; a 4429 (too many sockets) waits 30 s", () => {
    expect([0, 1, 2, 3, 4, 5, 9].map((n) => reconnectDelayMs(n))).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
    expect(reconnectDelayMs(0, 4429)).toBe(30000);
    expect(reconnectDelayMs(0, 1006)).toBe(1000);
  });

  it("when a frame is a notification, then it is read; anything else is dropped", () => {
    const data = { id: "n1", type: "email.received", title: "New email", message: "From a: b", data: {}, is_read: false, created_at: "x" };
    expect(parseFrame(JSON.stringify({ type: "email.received", data }))).toEqual({ type: "email.received", data });
    expect(parseFrame("not json")).toBeNull();
    expect(parseFrame(JSON.stringify({ type: "ping" }))).toBeNull();
    expect(parseFrame(new ArrayBuffer(2))).toBeNull();
  });

  it("when a notification tells of a mail or a new inbox, then it links there; an expired inbox links nowhere", () => {
    expect(linkOf({ type: "email.received", data: { inbox_id: "i1", email_id: "e1" } })).toBe("/inboxes/i1/mail/e1");
    expect(linkOf({ type: "inbox.created", data: { inbox_id: "i1", full_address: "a@b" } })).toBe("/inboxes/i1");
    expect(linkOf({ type: "inbox.expired", data: { inbox_id: "i1" } })).toBeUndefined();
    expect(linkOf({ type: "team.member_added", data: { org_id: "o", team_id: "t" } })).toBeUndefined();
  });
});
