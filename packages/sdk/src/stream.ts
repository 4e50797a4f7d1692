import type { components } from "./generated/openapi.js";
import type { Extracted } from "./extensions.js";
import { ReconnectingSocket, type WebSocketLike } from "./reconnecting-socket.js";

/**
 * A frame of `/ws/inboxes/{id}` (spec 6.5): JSON with `type` and `data`, and `id`, the id of the
 * event it tells of (absent on `resync_required`), which a reconnect sends back as `last_event_id`.
 */
export type InboxFrame =
  | { type: "email.received"; data: EmailReceivedData; id?: string }
  | { type: "inbox.deleted"; data: Record<string, unknown>; id?: string }
  | { type: "resync_required"; data: ResyncRequiredData; id?: undefined }
  | { type: string; data: Record<string, unknown>; id?: string };

/** The `data` of an `email.received` frame: the email's summary (with `extracted` once the inbox service sends it). */
export type EmailReceivedData = components["schemas"]["EmailSummary"] & { extracted?: Extracted } & Record<string, unknown>;

/**
 * The `data` of a `resync_required` frame: a resumed stream whose `last_event_id` was not in the
 * server's replay window (10 minutes, 1,000 frames) or could not be replayed; mail may have been
 * missed, so read the inbox's list again. The live frames follow.
 */
export type ResyncRequiredData = components["schemas"]["InboxResyncFrameData"] & Record<string, unknown>;

/** How stream() reconnects after the socket drops (any close but a normal one, 1000, or a 4xxx). */
export interface ReconnectOptions {
  /** Consecutive failed attempts before the iteration fails (default 10). */
  maxAttempts?: number;
  /** The pause before attempt n (1-based): default 250 ms doubling, at most 5 s. */
  delayMs?: (attempt: number) => number;
}

export type { WebSocketLike };
/** A WebSocket class: the global `WebSocket`, `ws`'s `WebSocket`, or anything whose instances are WebSocketLike. */
export type WebSocketConstructor = new (url: string) => object;

/**
 * The WebSocket class to use: the one given, else the global one (browsers, Node 22+), else the
 * `ws` package (Node 20: install it beside the SDK). The import is by a computed name so that
 * bundlers for the browser never pull it in.
 */
export async function resolveWebSocket(given?: WebSocketConstructor): Promise<WebSocketConstructor> {
  if (given) return given;
  const g = (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
  if (g) return g;
  const name = "ws";
  try {
    const mod = (await import(/* @vite-ignore */ name)) as { default?: unknown; WebSocket?: unknown };
    return (mod.WebSocket ?? mod.default) as WebSocketConstructor;
  } catch {
    throw new Error("no WebSocket implementation: use Node 22+, install the `ws` package, or pass { WebSocket }");
  }
}

const text = (data: unknown): string => {
  if (typeof data === "string") return data;
  if (data instanceof ArrayBuffer) return new TextDecoder().decode(data);
  if (ArrayBuffer.isView(data)) return new TextDecoder().decode(data);
  return String(data);
};

/** Closes after which a stream does not reconnect: normal (the inbox ended), policy, and the application's 4xxx. */
const isFinal = (code: number): boolean => code === 1000 || code === 1008 || (code >= 4000 && code < 5000);

/**
 * The live frames of one inbox as an async iterator. It connects at once; `ready` resolves when
 * the socket is open (mail received from then on is yielded). Iteration ends when the server
 * closes the socket normally (the inbox was deleted, say) or on close(); breaking out of a
 * for-await loop closes it too. A refused first connection rejects `ready` and the pending next().
 *
 * Resuming: it remembers the `id` of the last frame (`lastEventId`) and, unless `reconnect` is
 * false, opens a new socket when one drops (a replica killed or restarted, a network cut), with
 * `last_event_id`: the server sends the frames missed meanwhile first, so the iteration goes on
 * without a gap or a repeat; or a `resync_required` frame when it could not (read the list again).
 */
export class InboxStream implements AsyncIterableIterator<InboxFrame> {
  readonly ready: Promise<void>;
  private readonly socket: ReconnectingSocket;
  private readonly queue: InboxFrame[] = [];
  private waiting: { resolve: (r: IteratorResult<InboxFrame>) => void; reject: (e: Error) => void } | null = null;
  private done = false;
  private failure: Error | null = null;
  /** The code of the close frame, once closed. */
  closeCode: number | null = null;
  /** The `id` of the last frame received (or the one given to start from): where a reconnect resumes. */
  lastEventId: string | undefined;
  /** How many times the socket was opened again after a drop. */
  reconnects = 0;

  constructor(
    connect: (lastEventId: string | undefined) => Promise<object>,
    signal?: AbortSignal,
    opts: { reconnect?: boolean | ReconnectOptions; lastEventId?: string } = {},
  ) {
    this.lastEventId = opts.lastEventId;
    const retry = typeof opts.reconnect === "object" ? opts.reconnect : {};
    let opened!: () => void;
    let refused!: (err: Error) => void;
    this.ready = new Promise<void>((resolve, reject) => ((opened = resolve), (refused = reject)));
    // a failure surfaces through next(); an unobserved `ready` must not crash the process
    this.ready.catch(() => undefined);
    this.socket = new ReconnectingSocket(
      () => connect(this.lastEventId),
      {
        firstFailureIsFinal: true,
        isFinal: (code) => !opts.reconnect || isFinal(code),
        delayMs: (attempt) =>
          attempt > (retry.maxAttempts ?? 10) ? null : retry.delayMs ? retry.delayMs(attempt) : Math.min(5000, 250 * 2 ** (attempt - 1)),
      },
      {
        onOpen: (reopened) => (reopened ? this.reconnects++ : opened()),
        onMessage: (data) => {
          let frame: InboxFrame;
          try {
            frame = JSON.parse(text(data)) as InboxFrame;
          } catch {
            return;
          }
          if (typeof frame.id === "string") this.lastEventId = frame.id;
          this.push(frame);
        },
        onClose: (code) => (this.closeCode = code),
        onEnd: ({ error }) => {
          if (!error) return this.finish();
          refused(error);
          this.fail(error);
        },
      },
    );
    signal?.addEventListener("abort", () => this.close(), { once: true });
  }

  private push(frame: InboxFrame): void {
    if (this.done) return;
    if (this.waiting) {
      const w = this.waiting;
      this.waiting = null;
      w.resolve({ value: frame, done: false });
    } else this.queue.push(frame);
  }

  private finish(): void {
    this.done = true;
    if (this.waiting) {
      const w = this.waiting;
      this.waiting = null;
      w.resolve({ value: undefined, done: true });
    }
  }

  private fail(cause: unknown): void {
    const err = cause instanceof Error ? cause : new Error(String(cause));
    this.failure = err;
    this.done = true;
    if (this.waiting) {
      const w = this.waiting;
      this.waiting = null;
      w.reject(err);
    }
  }

  next(): Promise<IteratorResult<InboxFrame>> {
    const queued = this.queue.shift();
    if (queued) return Promise.resolve({ value: queued, done: false });
    if (this.failure) return Promise.reject(this.failure);
    if (this.done) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => (this.waiting = { resolve, reject }));
  }

  /** Closes the socket and ends the iteration. */
  close(): void {
    this.queue.length = 0;
    this.finish();
    this.socket.close(1000);
  }

  return(): Promise<IteratorResult<InboxFrame>> {
    this.close();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}
