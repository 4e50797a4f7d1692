import { EmailReceivedData, EmailReceivedEvent, EventType, type EventOf, type NotificationType } from "@burnbox/contracts";
import type { z } from "zod";

/** The events that notify someone: the inbox's creator, the inviter (invite accepted), the added user (team member added). */
export const NOTIFYING_EVENTS = [
  EventType.emailReceived,
  EventType.inboxCreated,
  EventType.inboxExpired,
  EventType.inviteAccepted,
  EventType.teamMemberAdded,
] as const;

/**
 * The part of an `email.received` event its notification reads, all its consumer checks: the
 * summary, extracted codes and links and authentication results it also carries are not read
 * here, so not checked again at this hop (issue 39).
 */
export const NotifiedEmail = EmailReceivedEvent.pick({ id: true, type: true, org_id: true, occurred_at: true }).extend({
  data: EmailReceivedData.pick({ inbox_id: true, email_id: true, from: true, subject: true, created_by: true }),
});
export type NotifiedEmail = z.infer<typeof NotifiedEmail>;

export type NotifyingEvent = EventOf<Exclude<(typeof NOTIFYING_EVENTS)[number], typeof EventType.emailReceived>> | NotifiedEmail;

export interface NotificationContent {
  userId: string;
  type: NotificationType;
  title: string;
  message: string;
  data: Record<string, unknown>;
}

/**
 * Who gets which notification for an event (contract notes), or null when nobody does: an event
 * from before the events named the inbox's creator has no one to notify.
 */
export function notificationForEvent(event: NotifyingEvent): NotificationContent | null {
  if (event.type === EventType.inviteAccepted) {
    const { org_id, invite_id, email, invited_by } = event.data;
    return {
      userId: invited_by,
      type: event.type,
      title: "Invite accepted",
      message: `${email} accepted your invite`,
      data: { org_id, invite_id, email },
    };
  }
  if (event.type === EventType.teamMemberAdded) {
    const { user_id, team_id, team_name, added_by } = event.data;
    // nobody is told what they did themselves
    if (added_by === user_id || !event.org_id) return null;
    return {
      userId: user_id,
      type: event.type,
      title: "Added to a team",
      message: `You were added to the team ${team_name}`,
      data: { org_id: event.org_id, team_id },
    };
  }
  const userId = event.data.created_by;
  if (!userId) return null;
  switch (event.type) {
    case EventType.emailReceived: {
      const { inbox_id, email_id, from, subject } = event.data;
      return {
        userId,
        type: event.type,
        title: "New email",
        message: `From ${from}: ${subject}`,
        data: { inbox_id, email_id, from, subject },
      };
    }
    case EventType.inboxCreated: {
      const { inbox_id, full_address } = event.data;
      return {
        userId,
        type: event.type,
        title: "Inbox created",
        message: `Inbox ${full_address} is ready`,
        data: { inbox_id, full_address },
      };
    }
    case EventType.inboxExpired: {
      const { inbox_id, full_address } = event.data;
      return {
        userId,
        type: event.type,
        title: "Inbox expired",
        message: `Inbox ${full_address} has expired`,
        data: { inbox_id, full_address },
      };
    }
  }
}
