import { WebSocket } from "ws";
import { pipeline, type Logger } from "@burnbox/service-kit/runtime";
import { sendPing, sendText, textFrame } from "./ws-frames";

/** A client's stream socket as the hub holds it (a `ws` WebSocket); use cases name it by this type. */
export type StreamSocket = WebSocket;

/** A frame as the hub sends it: spec 6.5's `type` and `data`, and the id of its event when it has one. */
export interface HubFrame {
  type: string;
  data: unknown;
  id?: string;
}

/** A live frame held for a socket that is being replayed to: its event id and its bytes, made once. */
interface HeldFrame {
  id: string | undefined;
  frame: Buffer;
  payload: Buffer;
}

/**
 * A resumed socket's state: while its replay is read, the live frames `held` for it (and the close
 * its inbox's end asked for meanwhile); after, the replayed event ids whose live frame has not come
 * yet (this replica's consumer may lag behind the stream the replay read), dropped when it comes.
 * At most the replay window's events (`ws.replay_max_events`) per socket.
 */
interface Resumed {
  held: HeldFrame[] | null;
  closeOnRelease: [number, string] | null;
  replayed: Set<string>;
}

/** How many of the last frame ids sent to a socket it keeps (a catch-up's anchor and what it must not send again). */
const RECENT_IDS = 32;

/** A socket held for a catch-up (`holdAll`): its key, the ids of the last frames it was sent (oldest first), when it was added. */
export interface HeldSocket {
  key: string;
  socket: WebSocket;
  recent: readonly string[];
  addedAt: number;
}

/**
 * The sockets of this replica, by inbox (or, for the notification stream, by user). Frames go only to the sockets of their inbox; a peer
 * that stops answering pings is dropped (see `heartbeat`), and one that cannot keep up is cut off.
 */
export class Hub {
  private readonly byInbox = new Map<string, Set<WebSocket>>();
  private readonly alive = new WeakMap<WebSocket, boolean>();
  /** Resumed sockets (see `Resumed`): empty unless a client resumed a stream. */
  private readonly resumed = new Map<WebSocket, Resumed>();
  /** The ids of the last `RECENT_IDS` frames sent to each socket that was sent one (oldest first). */
  private readonly recent = new WeakMap<WebSocket, string[]>();
  private readonly addedAt = new WeakMap<WebSocket, number>();

  constructor(
    private readonly logger: Logger,
    /**
     * `stream` labels this hub's broadcast metric (inbox, notifications, admin_stats);
     * `heartbeatSlice` is how many sockets a heartbeat pings before it lets other work run (500);
     * `onEmpty` is told when the last socket of a key closes.
     */
    private readonly opts: { maxBufferedBytes: number; stream: string; heartbeatSlice?: number; onEmpty?: (key: string) => void },
  ) {}

  /**
   * Adds a socket under `inboxId`. With `hold`, the frames sent to it are kept rather than sent
   * until `release` (a resumed stream: live frames wait behind the replayed ones).
   */
  add(inboxId: string, socket: WebSocket, opts: { hold?: boolean } = {}): void {
    if (opts.hold) this.resumed.set(socket, { held: [], closeOnRelease: null, replayed: new Set() });
    let set = this.byInbox.get(inboxId);
    if (!set) this.byInbox.set(inboxId, (set = new Set()));
    set.add(socket);
    this.alive.set(socket, true);
    this.addedAt.set(socket, Date.now());
    pipeline.openWebSockets.inc();
    socket.on("pong", () => this.alive.set(socket, true));
    socket.on("close", () => {
      pipeline.openWebSockets.dec();
      this.resumed.delete(socket);
      set.delete(socket);
      if (set.size === 0 && this.byInbox.get(inboxId) === set) {
        this.byInbox.delete(inboxId);
        this.opts.onEmpty?.(inboxId);
      }
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

  /**
   * Sends `first` (the replayed frames, in order) on a held socket, then the live frames held
   * for it meanwhile except those whose event id `first` already carried, and from then on the
   * live frames as they come, but for the replayed ones arriving late: no gap and no frame twice
   * at the seam.
   */
  release(socket: WebSocket, first: readonly HubFrame[]): void {
    const state = this.resumed.get(socket);
    if (!state?.held) return;
    const held = state.held;
    state.held = null;
    if (socket.readyState !== WebSocket.OPEN) return;
    for (const f of first) {
      if (f.id) state.replayed.add(f.id);
      const payload = Buffer.from(JSON.stringify(f), "utf8");
      sendText(socket, textFrame(payload), payload);
      this.sent(socket, f.id);
    }
    for (const h of held) {
      if (h.id && state.replayed.delete(h.id)) continue;
      sendText(socket, h.frame, h.payload);
      this.sent(socket, h.id);
    }
    if (state.replayed.size === 0) this.resumed.delete(socket);
    if (state.closeOnRelease) socket.close(...state.closeOnRelease);
  }

  send(inboxId: string, frame: HubFrame): number {
    const sockets = this.byInbox.get(inboxId);
    if (!sockets) return 0;
    const started = performance.now();
    // encoded and framed once for every socket (see frames.ts)
    const data = Buffer.from(JSON.stringify(frame), "utf8");
    const framed = textFrame(data);
    let sent = 0;
    for (const socket of sockets) {
      if (socket.readyState !== WebSocket.OPEN) continue;
      const resumed = this.resumed.size > 0 ? this.resumed.get(socket) : undefined;
      if (resumed) {
        if (resumed.held) {
          resumed.held.push({ id: frame.id, frame: framed, payload: data });
          continue;
        }
        // replayed already: its live frame came after the release
        if (frame.id && resumed.replayed.delete(frame.id)) {
          if (resumed.replayed.size === 0) this.resumed.delete(socket);
          continue;
        }
      }
      if (socket.bufferedAmount > this.opts.maxBufferedBytes) {
        this.logger.warn({ inbox_id: inboxId }, "websocket peer too slow; closing");
        socket.close(1013, "too slow");
        setTimeout(() => socket.terminate(), 1000).unref();
        continue;
      }
      sendText(socket, framed, data);
      this.sent(socket, frame.id);
      sent++;
    }
    pipeline.websocketBroadcast.observe({ stream: this.opts.stream }, (performance.now() - started) / 1000);
    return sent;
  }

  /** Notes a frame id sent to `socket` (the last `RECENT_IDS` are kept). */
  private sent(socket: WebSocket, id: string | undefined): void {
    if (!id) return;
    let ids = this.recent.get(socket);
    if (!ids) this.recent.set(socket, (ids = []));
    ids.push(id);
    if (ids.length > RECENT_IDS) ids.shift();
  }

  /**
   * Holds every open socket's frames, as for a resumed one, until `release`: a catch-up (after a
   * NATS reconnect) reads what they missed meanwhile. A socket whose resume is still being read
   * is left to it.
   */
  holdAll(): HeldSocket[] {
    const all: HeldSocket[] = [];
    for (const [key, sockets] of this.byInbox) {
      for (const socket of sockets) {
        if (socket.readyState !== WebSocket.OPEN) continue;
        const state = this.resumed.get(socket);
        if (state?.held) continue;
        if (state) state.held = [];
        else this.resumed.set(socket, { held: [], closeOnRelease: null, replayed: new Set() });
        all.push({ key, socket, recent: [...(this.recent.get(socket) ?? [])], addedAt: this.addedAt.get(socket) ?? Date.now() });
      }
    }
    return all;
  }

  closeInbox(inboxId: string, code: number, reason: string): void {
    for (const socket of this.byInbox.get(inboxId) ?? []) {
      const resumed = this.resumed.get(socket);
      if (resumed?.held) resumed.closeOnRelease = [code, reason];
      else socket.close(code, reason);
    }
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
