import type { EmailSummary, InboxStream } from "@burnbox/sdk";
import { useCallback, useEffect, useRef, useState } from "react";
import { messageOf, useOpenInboxStream } from "./api";

/**
 * connecting: the first connection is being opened; live: frames arrive; reconnecting: the
 * socket dropped and a new ticket and socket are on the way (after a back-off); offline: gave up
 * after several failures, or the browser is offline (the reader can retry); ended: the server
 * closed normally (the inbox was deleted or expired).
 */
export type StreamState = "connecting" | "live" | "reconnecting" | "offline" | "ended";

const MAX_FAILURES = 8;

/**
 * The inbox's WebSocket (`POST /ws/ticket`, then `/ws/inboxes/{id}`), reopened when it drops. A
 * reopened socket resumes from the last frame's id (`last_event_id`): the server sends the mail
 * missed meanwhile first; the list is read again only when there is nothing to resume from or the
 * server answers `resync_required`.
 */
export function useInboxStream(
  inboxId: string,
  opts: { enabled: boolean; onEmail: (summary: EmailSummary) => void; onReconnected?: () => void },
): { state: StreamState; error: string | null; retryInMs: number | null; reconnect: () => void } {
  const openStream = useOpenInboxStream();
  const [state, setState] = useState<StreamState>("connecting");
  const [error, setError] = useState<string | null>(null);
  const [retryInMs, setRetryInMs] = useState<number | null>(null);
  const [generation, setGeneration] = useState(0);
  const handlers = useRef(opts);
  handlers.current = opts;
  // whether a socket of this page has been open before (across "Reconnect now", which starts afresh)
  const everOpened = useRef(false);
  const { enabled } = opts;

  useEffect(() => {
    if (!enabled) return;
    let stopped = false;
    let live: InboxStream | null = null;
    let wake: (() => void) | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const pause = (ms: number) =>
      new Promise<void>((resolve) => {
        wake = resolve;
        timer = setTimeout(resolve, ms);
      });
    // back online: try at once rather than after the back-off
    const onOnline = () => wake?.();
    window.addEventListener("online", onOnline);

    void (async () => {
      let failures = 0;
      // the id of the last frame seen on this page's sockets: where the next one resumes
      let lastEventId: string | undefined;
      while (!stopped) {
        setState(everOpened.current || failures > 0 ? "reconnecting" : "connecting");
        setRetryInMs(null);
        const current = openStream(inboxId, lastEventId);
        live = current;
        try {
          await live.ready;
          if (stopped) return;
          // mail that came while no socket was open is read again from the list, unless resumed
          if (everOpened.current && !lastEventId) handlers.current.onReconnected?.();
          everOpened.current = true;
          failures = 0;
          setError(null);
          setState("live");
          for await (const frame of live) {
            lastEventId = current.lastEventId;
            if (frame.type === "resync_required") handlers.current.onReconnected?.();
            if (frame.type === "email.received") {
              performance.mark(`bb:frame:${(frame.data as EmailSummary).id}`);
              handlers.current.onEmail(frame.data as EmailSummary);
            }
          }
          if (stopped) return;
          // a normal close is the server's: the inbox was deleted or has expired
          if (live.closeCode === 1000) {
            setState("ended");
            return;
          }
          setError(`the connection closed (${live.closeCode ?? "no code"})`);
        } catch (err) {
          if (stopped) return;
          setError(messageOf(err));
        }
        failures += 1;
        if (failures > MAX_FAILURES) {
          setState("offline");
          return;
        }
        const backoff = Math.min(30_000, 500 * 2 ** (failures - 1)) * (0.75 + Math.random() * 0.5);
        setState(navigator.onLine ? "reconnecting" : "offline");
        setRetryInMs(Math.round(backoff));
        await pause(backoff);
      }
    })();

    return () => {
      stopped = true;
      window.removeEventListener("online", onOnline);
      clearTimeout(timer);
      wake?.();
      live?.close();
    };
  }, [openStream, inboxId, enabled, generation]);

  const reconnect = useCallback(() => setGeneration((g) => g + 1), []);
  return { state, error, retryInMs, reconnect };
}
