// The notification stream's rules, apart from React: the socket's URL, the frames, the backoff; and
// where a notification leads.
import type { components } from "@burnbox/sdk";

export type Notification = components["schemas"]["Notification"];

/** The ws(s):// URL of `/ws/notifications` under the SDK's base URL (which may be relative to the page). */
export function notificationsSocketUrl(baseUrl: string, ticket: string, page: string): string {
  const url = new URL(`${baseUrl.replace(/\/+$/, "")}/ws/notifications`, page);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  url.searchParams.set("ticket", ticket);
  return url.toString();
}

/** Delay before reconnect attempt `n` (0-based): 1 s, 2 s, 4 s … at most 30 s; 30 s after 4429 (too many sockets). */
export function reconnectDelayMs(n: number, closeCode?: number): number {
  if (closeCode === 4429) return 30_000;
  return Math.min(30_000, 1000 * 2 ** n);
}

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
