import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { components } from "@burnbox/sdk";
import { useApi } from "../../api/query";
import { notificationKeys } from "./keys";

export type Notification = components["schemas"]["Notification"];
/** `connecting` before the first open, `live` while open, `reconnecting` after a drop (a new ticket, with backoff). */
export type LiveState = "connecting" | "live" | "reconnecting";

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

/**
 * Keeps one socket on `/ws/notifications` (a fresh ticket from `POST /ws/ticket` for every
 * connection) while mounted; each pushed notification refreshes the unread count and the lists.
 * Every open refetches them too, and a drop reconnects with backoff, so nothing written while no
 * socket was open is missed.
 */
export function useNotificationStream(): LiveState {
  const bb = useApi();
  const queryClient = useQueryClient();
  const [state, setState] = useState<LiveState>("connecting");

  useEffect(() => {
    let socket: WebSocket | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;
    let everOpened = false;
    let stopped = false;
    const refresh = () => void queryClient.invalidateQueries({ queryKey: notificationKeys.all });

    const retry = (closeCode?: number) => {
      if (stopped) return;
      setState(everOpened ? "reconnecting" : "connecting");
      timer = setTimeout(() => void connect(), reconnectDelayMs(failures++, closeCode));
    };
    const connect = async () => {
      let ticket: string;
      try {
        ticket = await bb.wsTicket();
      } catch {
        retry();
        return;
      }
      if (stopped) return;
      const ws = new WebSocket(notificationsSocketUrl(bb.baseUrl, ticket, window.location.href));
      socket = ws;
      ws.onopen = () => {
        failures = 0;
        setState("live");
        // what was written while no socket was open (before the first one, too) shows now
        refresh();
        everOpened = true;
      };
      ws.onmessage = (ev: MessageEvent) => {
        if (parseFrame(ev.data)) refresh();
      };
      ws.onclose = (ev: CloseEvent) => {
        if (socket === ws) socket = null;
        retry(ev.code);
      };
    };
    void connect();
    return () => {
      stopped = true;
      clearTimeout(timer);
      socket?.close(1000);
    };
  }, [bb, queryClient]);

  return state;
}
