import { linkOf, parseFrame } from "./frames";

describe("the notification stream's rules", () => {
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
