import type { components } from "./generated/openapi.js";
import type { Extracted } from "./extensions.js";

/** A frame of `/ws/inboxes/{id}` (spec 6.5): JSON with `type` and `data`. */
export type InboxFrame =
  | { type: "email.received"; data: EmailReceivedData }
  | { type: "inbox.deleted"; data: Record<string, unknown> }
  | { type: string; data: Record<string, unknown> };

/** The `data` of an `email.received` frame: the email's summary (with `extracted` once the inbox service sends it). */
export type EmailReceivedData = components["schemas"]["EmailSummary"] & { extracted?: Extracted } & Record<string, unknown>;

/** The part of the WHATWG WebSocket that stream() uses; the global WebSocket and the `ws` package both fit. */
export interface WebSocketLike {
  readonly readyState: number;
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  onclose: ((ev: { code: number; reason: string }) => void) | null;
  close(code?: number, reason?: string): void;
}
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

/**
 * The live frames of one inbox as an async iterator. It connects at once; `ready` resolves when
 * the socket is open (mail received from then on is yielded). Iteration ends when the server
 * closes the socket (the inbox was deleted, say) or on close(); breaking out of a for-await loop
 * closes it too. A refused connection rejects `ready` and the pending next().
 */
export class InboxStream implements AsyncIterableIterator<InboxFrame> {
  readonly ready: Promise<void>;
  private socket: WebSocketLike | null = null;
  private readonly queue: InboxFrame[] = [];
  private waiting: { resolve: (r: IteratorResult<InboxFrame>) => void; reject: (e: Error) => void } | null = null;
  private done = false;
  private failure: Error | null = null;
  /** The code of the close frame, once closed. */
  closeCode: number | null = null;

  constructor(connect: () => Promise<object>, signal?: AbortSignal) {
    this.ready = connect().then(
      (instance) =>
        new Promise<void>((resolve, reject) => {
          const socket = instance as WebSocketLike;
          this.socket = socket;
          let opened = false;
          socket.onopen = () => {
            opened = true;
            resolve();
          };
          socket.onmessage = (ev) => {
            let frame: InboxFrame;
            try {
              frame = JSON.parse(text(ev.data)) as InboxFrame;
            } catch {
              return;
            }
            this.push(frame);
          };
          socket.onerror = () => {
            if (!opened) {
              const err = new Error("the WebSocket connection was refused");
              reject(err);
              this.fail(err);
            }
          };
          socket.onclose = (ev) => {
            this.closeCode = ev.code;
            if (!opened) {
              const err = new Error(`the WebSocket closed before it opened (${ev.code})`);
              reject(err);
              this.fail(err);
            } else this.finish();
          };
          // a socket that opened before the handlers were set (a stand-in, say) counts as open
          if (socket.readyState === 1) {
            opened = true;
            resolve();
          }
          if (this.done) socket.close(1000);
        }),
      (err: unknown) => {
        this.fail(err);
        throw err;
      },
    );
    // a failure surfaces through next(); an unobserved `ready` must not crash the process
    this.ready.catch(() => undefined);
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
    if (this.socket && this.socket.readyState < 2) this.socket.close(1000);
  }

  return(): Promise<IteratorResult<InboxFrame>> {
    this.close();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}
