import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Logger } from "./logger";

/** `shutdown.*` settings: how long to keep serving after SIGTERM, and how long in-flight work may take. */
export interface DrainSettings {
  /** Readiness fails at once; the process keeps serving this long so the endpoints drop it first. */
  delayMs: number;
  /** In-flight requests (and drain hooks) get this long to finish before their sockets are cut. */
  timeoutMs: number;
}

/** A hook run when the process drains: answer a held long poll, close a stream with a "going away". */
export type DrainHook = () => void | Promise<void>;

/**
 * One process's shutdown, in the order a rolling update needs it (runService runs it on SIGTERM):
 * 1. readiness answers 503 at once (`draining`), while every request is still served;
 * 2. after `delayMs` (the endpoints have dropped the pod, no new requests are routed here) the
 *    drain hooks run: long-lived requests are answered rather than cut;
 * 3. the service stops: its servers accept no new connection, close idle keep-alive sockets, let
 *    in-flight requests finish (answered with `Connection: close`) up to `timeoutMs`, then cut
 *    what remains.
 */
export class Drain {
  private started = false;
  private readonly hooks = new Set<DrainHook>();

  constructor(
    readonly settings: DrainSettings,
    private readonly logger?: Logger,
  ) {}

  /** True from the first moment of shutdown: readiness fails. */
  get draining(): boolean {
    return this.started;
  }

  /**
   * Runs `hook` once when the process drains (at once if it already does); returns a function
   * that removes it (call it when the long-lived request ends by itself).
   */
  onDrain(hook: DrainHook): () => void {
    this.hooks.add(hook);
    return () => {
      this.hooks.delete(hook);
    };
  }

  /** Steps 1-3 above; `stop` is the service's own stop (servers, workers, consumers). */
  async shutdown(stop: () => Promise<void>): Promise<void> {
    this.started = true;
    this.logger?.info({ delay_ms: this.settings.delayMs, timeout_ms: this.settings.timeoutMs }, "draining: readiness fails");
    if (this.settings.delayMs > 0) await new Promise((r) => setTimeout(r, this.settings.delayMs));
    // the hooks answer their requests; the servers' close below waits for those answers (bounded)
    for (const hook of this.hooks)
      void Promise.resolve()
        .then(hook)
        .catch((err: unknown) => this.logger?.warn({ err }, "drain hook failed"));
    this.hooks.clear();
    await stop();
  }
}

/**
 * Closes an HTTP server gracefully: no new connection is accepted, idle keep-alive sockets close
 * now, each in-flight request finishes (its response says `Connection: close`, and its socket
 * closes after it), and whatever is still open after `timeoutMs` is cut. Resolves once every
 * connection is gone.
 */
export function closeGracefully(server: Server, timeoutMs: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const markClose = (res: ServerResponse) => {
      if (!res.headersSent) res.shouldKeepAlive = false;
      // once answered its socket is idle (or closes by itself): close the idle ones again
      res.once("finish", () => setImmediate(() => server.closeIdleConnections()));
    };
    for (const res of inFlight(server)) markClose(res);
    // a request that arrives on a kept-alive socket meanwhile is served, then its socket closes
    const onRequest = (_req: IncomingMessage, res: ServerResponse) => markClose(res);
    server.on("request", onRequest);
    const timer = setTimeout(() => server.closeAllConnections(), timeoutMs);
    timer.unref();
    server.close(() => {
      clearTimeout(timer);
      server.off("request", onRequest);
      resolve();
    });
    server.closeIdleConnections();
  });
}

const IN_FLIGHT = Symbol.for("burnbox.http.inFlight");

/** Tracks the responses a server has not finished yet (listen() installs it), so a drain can mark them. */
export function trackInFlight(server: Server): void {
  const set = new Set<ServerResponse>();
  (server as unknown as Record<symbol, Set<ServerResponse>>)[IN_FLIGHT] = set;
  server.prependListener("request", (_req: IncomingMessage, res: ServerResponse) => {
    set.add(res);
    const done = () => set.delete(res);
    res.once("finish", done);
    res.once("close", done);
  });
}

function inFlight(server: Server): ServerResponse[] {
  return [...((server as unknown as Record<symbol, Set<ServerResponse> | undefined>)[IN_FLIGHT] ?? [])];
}
