// The notification stream's rules, apart from React: the frames, and where a notification leads
// (the socket and its backoff: api/live-socket.ts).
import type { components } from "@burnbox/sdk";

export type Notification = components["schemas"]["Notification"];

/** `{type, data: Notification}` from a frame, or null when it is something else. */
export function parseFrame(raw: unknown): { type: string; data: Notification } | null {
  if (typeof raw !== "string") return null;
  try {
    const f = JSON.parse(raw) as { type?: unknown; data?: { id?: unknown } };
    return typeof f.type === "string" && f.data && typeof f.data.id === "string" ? (f as { type: string; data: Notification }) : null;
  } catch {
    return null;
  }
}

/** Where a notification leads in the console, if anywhere (the inbox, the mail). */
export function linkOf(n: Pick<Notification, "type" | "data">): string | undefined {
  const d = n.data as Record<string, unknown>;
  const inboxId = typeof d.inbox_id === "string" ? d.inbox_id : undefined;
  if (n.type === "email.received" && inboxId && typeof d.email_id === "string") return `/inboxes/${inboxId}/mail/${d.email_id}`;
  if (n.type === "inbox.created" && inboxId) return `/inboxes/${inboxId}`;
  return undefined;
}
