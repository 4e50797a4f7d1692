// One WebSocket of the API's that a page keeps open while mounted: a fresh ticket from
// `POST /ws/ticket` for every connection, and a reconnect with backoff after every drop (the
// SDK's ReconnectingSocket, which the SDK's inbox streams use too).
import { useEffect, useRef, useState } from "react";
import { ReconnectingSocket } from "@burnbox/sdk";
import { useApi } from "./query";

/** `connecting` before the first open, `live` while open, `reconnecting` after a drop (a new ticket, with backoff). */
export type LiveState = "connecting" | "live" | "reconnecting";

/** The ws(s):// URL of a socket path (e.g. `/ws/notifications`) under the SDK's base URL (which may be relative to the page). */
export function ticketSocketUrl(baseUrl: string, path: string, ticket: string, page: string): string {
  const url = new URL(`${baseUrl.replace(/\/+$/, "")}${path}`, page);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  url.searchParams.set("ticket", ticket);
  return url.toString();
}

/** Delay before reconnect attempt `n` (0-based): 1 s, 2 s, 4 s … at most 30 s; 30 s after 4429 (too many sockets). */
export function reconnectDelayMs(n: number, closeCode?: number): number {
  if (closeCode === 4429) return 30_000;
  return Math.min(30_000, 1000 * 2 ** n);
}

/**
 * Keeps one socket on `path` (`/ws/…`) while mounted and says its state. `onOpen` runs on every
 * open (to refetch what was written while none was), `onMessage` with each frame's data; the
 * latest handlers are used without reopening the socket.
 */
export function useLiveSocket(path: string, handlers: { onOpen?: () => void; onMessage: (data: unknown) => void }): LiveState {
  const bb = useApi();
  const [state, setState] = useState<LiveState>("connecting");
  const latest = useRef(handlers);
  latest.current = handlers;

  useEffect(() => {
    let everOpened = false;
    let unmounted = false;
    const socket = new ReconnectingSocket(
      async () => {
        const ticket = await bb.wsTicket();
        // unmounted while the ticket was asked for: no socket at all (a failure it will not retry)
        if (unmounted) throw new Error("unmounted");
        return new WebSocket(ticketSocketUrl(bb.baseUrl, path, ticket, window.location.href));
      },
      // attempt n (1-based since the last open) waits as failure n - 1 did: it never gives up
      { delayMs: (attempt, closeCode) => reconnectDelayMs(attempt - 1, closeCode) },
      {
        onOpen: () => {
          everOpened = true;
          setState("live");
          latest.current.onOpen?.();
        },
        onMessage: (data) => latest.current.onMessage(data),
        onRetry: () => setState(everOpened ? "reconnecting" : "connecting"),
      },
    );
    return () => {
      unmounted = true;
      socket.close(1000);
    };
  }, [bb, path]);

  return state;
}
