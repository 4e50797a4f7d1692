import { WebSocket } from "ws";
import { pipeline, type Logger } from "@burnbox/service-kit/runtime";
import { sendPing, sendText, textFrame } from "./ws-frames";

/** A client's stream socket as the hub holds it (a `ws` WebSocket); use cases name it by this type. */
export type StreamSocket = WebSocket;

/**
 * The sockets of this replica, by inbox (or, for the notification stream, by user). Frames go only to the sockets of their inbox; a peer
 * that stops answering pings is dropped (see `heartbeat`), and one that cannot keep up is cut off.
 */
export class Hub {
  private readonly byInbox = new Map<string, Set<WebSocket>>();
  private readonly alive = new WeakMap<WebSocket, boolean>();

  constructor(
    private readonly logger: Logger,
    /**
     * `stream` labels this hub's broadcast metric (inbox, notifications, admin_stats);
     * `heartbeatSlice` is how many sockets a heartbeat pings before it lets other work run (500).
     */
    private readonly opts: { maxBufferedBytes: number; stream: string; heartbeatSlice?: number },
  ) {}

  add(inboxId: string, socket: WebSocket): void {
    let set = this.byInbox.get(inboxId);
    if (!set) this.byInbox.set(inboxId, (set = new Set()));
    set.add(socket);
    this.alive.set(socket, true);
    pipeline.openWebSockets.inc();
    socket.on("pong", () => this.alive.set(socket, true));
    socket.on("close", () => {
      pipeline.openWebSockets.dec();
      set.delete(socket);
      if (set.size === 0) this.byInbox.delete(inboxId);
    });
    socket.on("error", () => socket.terminate());
  }

  /** How many sockets this replica holds under `key`. */
  count(key: string): number {
    return this.byInbox.get(key)?.size ?? 0;
  }

  get size(): number {
    let n = 0;
    for (const s of this.byInbox.values()) n += s.size;
    return n;
  }

  send(inboxId: string, frame: { type: string; data: unknown }): number {
    const sockets = this.byInbox.get(inboxId);
    if (!sockets) return 0;
    const started = performance.now();
    // encoded and framed once for every socket (see frames.ts)
    const data = Buffer.from(JSON.stringify(frame), "utf8");
    const framed = textFrame(data);
    let sent = 0;
    for (const socket of sockets) {
      if (socket.readyState !== WebSocket.OPEN) continue;
      if (socket.bufferedAmount > this.opts.maxBufferedBytes) {
        this.logger.warn({ inbox_id: inboxId }, "websocket peer too slow; closing");
        socket.close(1013, "too slow");
        setTimeout(() => socket.terminate(), 1000).unref();
        continue;
      }
      sendText(socket, framed, data);
      sent++;
    }
    pipeline.websocketBroadcast.observe({ stream: this.opts.stream }, (performance.now() - started) / 1000);
    return sent;
  }

  closeInbox(inboxId: string, code: number, reason: string): void {
    for (const socket of this.byInbox.get(inboxId) ?? []) socket.close(code, reason);
  }

  /**
   * Pings every socket; one that has not answered the previous ping since is terminated. The
   * sockets are pinged a slice at a time with a turn of the event loop between slices: a ping is a
   * write system call, and ten thousand of them at once held the loop (frames, tickets, pongs) for
   * over 100 ms (docs/performance.md). A socket that closes meanwhile is skipped.
   */
  async heartbeat(): Promise<void> {
    const all: WebSocket[] = [];
    for (const sockets of this.byInbox.values()) for (const socket of sockets) all.push(socket);
    const slice = this.opts.heartbeatSlice ?? 500;
    for (let at = 0; at < all.length; at += slice) {
      if (at > 0) await new Promise((resolve) => setImmediate(resolve));
      for (const socket of all.slice(at, at + slice)) {
        if (socket.readyState !== WebSocket.OPEN) continue;
        if (this.alive.get(socket) === false) {
          socket.terminate();
          continue;
        }
        this.alive.set(socket, false);
        sendPing(socket);
      }
    }
  }

  close(): void {
    for (const sockets of this.byInbox.values()) for (const s of sockets) s.close(1001, "server shutting down");
  }
}
