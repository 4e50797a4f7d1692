import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useApi } from "../../api/query";
import { notificationsSocketUrl, parseFrame, reconnectDelayMs } from "./frames";
import { notificationKeys } from "./keys";

/** `connecting` before the first open, `live` while open, `reconnecting` after a drop (a new ticket, with backoff). */
export type LiveState = "connecting" | "live" | "reconnecting";

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
