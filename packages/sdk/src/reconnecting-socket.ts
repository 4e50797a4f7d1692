/** The part of the WHATWG WebSocket that a ReconnectingSocket uses; the global WebSocket and the `ws` package both fit. */
export interface WebSocketLike {
  readonly readyState: number;
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  onclose: ((ev: { code: number; reason: string }) => void) | null;
  close(code?: number, reason?: string): void;
}

/** When and how often a ReconnectingSocket opens a new socket. */
export interface RetryPolicy {
  /**
   * The pause before attempt `attempt` (1-based, counted from the last open) after a drop or a
   * failed attempt; `closeCode` is that of the close when there was one. Null: give up.
   */
  delayMs(attempt: number, closeCode: number | undefined): number | null;
  /** Whether the close of an open socket ends it rather than reopening (default: none does). */
  isFinal?(closeCode: number): boolean;
  /** Whether a failure to open the very first socket ends it (default: it is retried like a drop). */
  firstFailureIsFinal?: boolean;
}

export interface ReconnectingSocketEvents {
  /** Every open: the first (`reopened` false) and each after a drop. */
  onOpen?(reopened: boolean): void;
  /** Each frame's data. */
  onMessage(data: unknown): void;
  /** Every close frame (after close() too), before it is decided whether to reopen. */
  onClose?(code: number): void;
  /** A drop or a failed attempt, after which attempt `attempt` follows in `delayMs`. */
  onRetry?(attempt: number, delayMs: number): void;
  /** The end, but by close(): a final close of an open socket (`code`), or a failure it gave up on (`error`). */
  onEnd?(end: { code: number | null; error?: Error }): void;
}

/**
 * One logical WebSocket kept open: `open()` makes each socket (so every connection can carry a
 * fresh ticket or a resume point), and a drop opens a new one after the policy's pause until the
 * policy gives up, a close is final, or close() is called.
 */
export class ReconnectingSocket {
  private socket: WebSocketLike | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;
  private everOpened = false;

  constructor(
    private readonly open: () => Promise<object>,
    private readonly policy: RetryPolicy,
    private readonly events: ReconnectingSocketEvents,
  ) {
    this.attempt(0);
  }

  /** Makes socket number `attempt` (0: the first) and follows it until it closes. */
  private attempt(attempt: number): void {
    const failed = (err: Error, closeCode?: number) => {
      if (this.stopped) return;
      if (attempt === 0 && !this.everOpened && this.policy.firstFailureIsFinal) this.end({ code: null, error: err });
      else this.retry(attempt + 1, err, closeCode);
    };
    this.open().then(
      (instance) => {
        const socket = instance as WebSocketLike;
        this.socket = socket;
        let opened = false;
        let settled = false;
        const opens = () => {
          opened = true;
          settled = true;
          const reopened = this.everOpened;
          this.everOpened = true;
          this.events.onOpen?.(reopened);
        };
        socket.onopen = () => {
          if (!opened) opens();
        };
        socket.onmessage = (ev) => this.events.onMessage(ev.data);
        socket.onerror = () => {
          if (settled) return;
          settled = true;
          failed(new Error("the WebSocket connection was refused"));
        };
        socket.onclose = (ev) => {
          if (this.socket === socket) this.socket = null;
          this.events.onClose?.(ev.code);
          if (this.stopped) return;
          if (!opened) {
            if (settled) return;
            settled = true;
            failed(new Error(`the WebSocket closed before it opened (${ev.code})`), ev.code);
          } else if (this.policy.isFinal?.(ev.code)) this.end({ code: ev.code });
          else this.retry(1, null, ev.code);
        };
        if (this.stopped) socket.close(1000);
        // a socket that opened before the handlers were set (a stand-in, say) counts as open
        else if (socket.readyState === 1) opens();
      },
      (err: unknown) => failed(err instanceof Error ? err : new Error(String(err))),
    );
  }

  /** Schedules attempt `attempt`, or ends with `cause` when the policy gives up. */
  private retry(attempt: number, cause: Error | null, closeCode: number | undefined): void {
    const delay = this.policy.delayMs(attempt, closeCode);
    if (delay === null) return this.end({ code: null, error: cause ?? new Error("the WebSocket could not be reopened") });
    this.events.onRetry?.(attempt, delay);
    this.timer = setTimeout(() => {
      if (!this.stopped) this.attempt(attempt);
    }, delay);
  }

  private end(end: { code: number | null; error?: Error }): void {
    this.stopped = true;
    this.events.onEnd?.(end);
  }

  /** Closes the socket (code 1000 unless said) and opens no other; no event follows. */
  close(code = 1000): void {
    this.stopped = true;
    clearTimeout(this.timer);
    if (this.socket && this.socket.readyState < 2) this.socket.close(code);
  }
}
