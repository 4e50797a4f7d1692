import { randomUUID } from "node:crypto";
import { nothingExtracted } from "@burnbox/contracts";
import { newEvent } from "@burnbox/service-kit/messaging";
import { notificationForEvent } from "./notification-for-event";

const orgId = randomUUID();
const teamId = randomUUID();
const creator = randomUUID();
const inboxId = randomUUID();

describe("notificationForEvent", () => {
  it("when an email arrives, then the creator gets `New email` with the sender and subject, and the ids", () => {
    const emailId = randomUUID();
    const event = newEvent("email.received", {
      org_id: orgId,
      team_id: teamId,
      data: {
        email_id: emailId,
        inbox_id: inboxId,
        team_id: teamId,
        from: "a@b.c",
        to: "x@y.z",
        subject: "Hi",
        received_at: "t",
        created_by: creator,
        extracted: nothingExtracted(),
      },
    });
    expect(notificationForEvent(event)).toEqual({
      userId: creator,
      type: "email.received",
      title: "New email",
      message: "From a@b.c: Hi",
      data: { inbox_id: inboxId, email_id: emailId, from: "a@b.c", subject: "Hi" },
    });
  });

  it("when an inbox is created or expires, then the creator gets a notification carrying the inbox id and address", () => {
    const created = newEvent("inbox.created", {
      org_id: orgId,
      team_id: teamId,
      data: { inbox_id: inboxId, team_id: teamId, address: "a", full_address: "a@b.c", expires_at: "t", created_by: creator },
    });
    const expired = newEvent("inbox.expired", {
      org_id: orgId,
      team_id: teamId,
      data: { inbox_id: inboxId, team_id: teamId, full_address: "a@b.c", expired_at: "t", created_by: creator },
    });
    expect(notificationForEvent(created)).toMatchObject({
      userId: creator,
      type: "inbox.created",
      data: { inbox_id: inboxId, full_address: "a@b.c" },
    });
    expect(notificationForEvent(expired)).toMatchObject({
      userId: creator,
      type: "inbox.expired",
      data: { inbox_id: inboxId, full_address: "a@b.c" },
    });
  });

  it("when the event does not name the creator, then nobody is notified", () => {
    const event = newEvent("inbox.expired", {
      org_id: orgId,
      team_id: teamId,
      data: { inbox_id: inboxId, team_id: teamId, full_address: "a@b.c", expired_at: "t" },
    });
    expect(notificationForEvent(event)).toBeNull();
  });

  it("when an invite is accepted, then the inviter is notified with the org, invite and address", () => {
    const inviter = randomUUID();
    const inviteId = randomUUID();
    const event = newEvent("invite.accepted", {
      org_id: orgId,
      team_id: null,
      data: { org_id: orgId, invite_id: inviteId, email: "new@example.org", user_id: randomUUID(), invited_by: inviter },
    });
    expect(notificationForEvent(event)).toMatchObject({
      userId: inviter,
      type: "invite.accepted",
      data: { org_id: orgId, invite_id: inviteId, email: "new@example.org" },
    });
  });

  it("when a user is added to a team by someone else, then they are notified with the org and team; never for adding oneself", () => {
    const added = randomUUID();
    const data = { user_id: added, team_id: teamId, team_name: "QA", role: "member", added_by: creator };
    const event = newEvent("team.member_added", { org_id: orgId, team_id: teamId, data });
    expect(notificationForEvent(event)).toMatchObject({
      userId: added,
      type: "team.member_added",
      data: { org_id: orgId, team_id: teamId },
    });
    const self = newEvent("team.member_added", { org_id: orgId, team_id: teamId, data: { ...data, added_by: added } });
    expect(notificationForEvent(self)).toBeNull();
  });
});
