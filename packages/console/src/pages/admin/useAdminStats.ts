import { useEffect, useState } from "react";
import { useApi } from "../../api/query";
import { reconnectDelayMs } from "../notifications/frames";
import { adminStatsSocketUrl, parseStatsFrame, type AdminStats } from "./stats";

/** `connecting` before the first open, `live` while open, `reconnecting` after a drop (a new ticket, with backoff). */
export type StatsState = "connecting" | "live" | "reconnecting";

/**
 * The platform's statistics as `/ws/admin-stats` pushes them (at once on open, then every 10 s),
 * with a fresh ticket from `POST /ws/ticket` for every connection; a drop reconnects with backoff.
 * `at` is when the last frame came.
 */
export function useAdminStats(): { stats: AdminStats | null; at: Date | null; state: StatsState } {
  const bb = useApi();
  const [stats, setStats] = useState<AdminStats | null>(null);
  const [at, setAt] = useState<Date | null>(null);
  const [state, setState] = useState<StatsState>("connecting");

  useEffect(() => {
    let socket: WebSocket | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;
    let everOpened = false;
    let stopped = false;

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
      const ws = new WebSocket(adminStatsSocketUrl(bb.baseUrl, ticket, window.location.href));
      socket = ws;
      ws.onopen = () => {
        failures = 0;
        everOpened = true;
        setState("live");
      };
      ws.onmessage = (ev: MessageEvent) => {
        const next = parseStatsFrame(ev.data);
        if (!next) return;
        setStats(next);
        setAt(new Date());
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
  }, [bb]);

  return { stats, at, state };
}
