import { EventType, type EventOf, type NotificationType } from "@burnbox/contracts";

/** The events that give the inbox's creator a notification. */
export const NOTIFYING_EVENTS = [EventType.emailReceived, EventType.inboxCreated, EventType.inboxExpired] as const;
export type NotifyingEvent = EventOf<(typeof NOTIFYING_EVENTS)[number]>;

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
