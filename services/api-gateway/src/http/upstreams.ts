/**
 * The replicas of one upstream service: `services.<name>_url` holds one URL or a comma-separated
 * list. Each request starts at the next replica in turn (round-robin) and may move on to the
 * following ones only while nothing of it has reached any upstream (see `mayTryNext`).
 */
export class UpstreamPool {
  private cursor = 0;

  constructor(readonly urls: readonly URL[]) {
    if (urls.length === 0) throw new Error("an upstream pool needs at least one URL");
  }

  /** Every replica once, starting with this request's turn: the first is tried, the rest are fallbacks. */
  attemptOrder(): URL[] {
    const start = this.cursor;
    this.cursor = (this.cursor + 1) % this.urls.length;
    return this.urls.map((_, i) => this.urls[(start + i) % this.urls.length] as URL);
  }
}

/** Splits a `services.<name>_url` value into its URLs (blank items ignored). */
export function parseUpstreamList(raw: string): URL[] {
  return raw
    .split(",")
    .map((x) => x.trim())
    .filter((x) => x.length > 0)
    .map((x) => new URL(x));
}

/** Whether a `services.<name>_url` value is one or more http(s) URLs, comma-separated. */
export function isUpstreamList(raw: string): boolean {
  try {
    const urls = parseUpstreamList(raw);
    return urls.length > 0 && urls.every((u) => u.protocol === "http:" || u.protocol === "https:");
  } catch {
    return false;
  }
}

/**
 * Whether a failed attempt may be repeated on the next replica: only when that replica refused
 * the connection, so not one byte of the request left the gateway. Anything else (a reset, a
 * timeout, a failure after the request was sent) may have reached a service, and a
 * non-idempotent request must never be sent twice.
 */
export function mayTryNext(err: unknown, bytesSent: boolean): boolean {
  return !bytesSent && refused(err);
}

/** ECONNREFUSED, or every address of a name (happy eyeballs: an AggregateError) refusing. */
function refused(err: unknown): boolean {
  if (err instanceof AggregateError) return err.errors.length > 0 && err.errors.every(refused);
  return (err as NodeJS.ErrnoException | null)?.code === "ECONNREFUSED";
}
