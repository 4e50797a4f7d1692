const MINUTE_MS = 60_000;

/**
 * The intake's per-client-IP limits, in this process: open connections at once, and messages in
 * any sliding minute. Counts are dropped as soon as an IP has nothing open or recent, so memory
 * follows the live clients, not every address ever seen.
 */
export class IntakeLimits {
  private readonly open = new Map<string, number>();
  /**
   * Each IP's send times, oldest first from `head` (the ones before it have left the minute). A
   * send drops the expired times from the front and appends one, so its cost does not grow with
   * the limit: an IP allowed thousands of messages a minute (a relay) was refiltered whole on
   * every message (docs/performance.md).
   */
  private readonly sent = new Map<string, { times: number[]; head: number }>();

  constructor(
    private readonly limits: { connectionsPerIp: number; messagesPerIpPerMinute: number },
    private readonly now: Clock = Date.now,
  ) {}

  /** Counts a new connection; false (and not counted) when the IP already holds its maximum. */
  tryOpen(ip: string): boolean {
    const n = this.open.get(ip) ?? 0;
    if (n >= this.limits.connectionsPerIp) return false;
    this.open.set(ip, n + 1);
    return true;
  }

  /** A connection counted by `tryOpen` has closed. */
  closed(ip: string): void {
    const n = (this.open.get(ip) ?? 0) - 1;
    if (n > 0) this.open.set(ip, n);
    else this.open.delete(ip);
  }

  /** Counts a new message; false (and not counted) when the IP sent its maximum in the last minute. */
  trySend(ip: string): boolean {
    const now = this.now();
    let log = this.sent.get(ip);
    if (!log) this.sent.set(ip, (log = { times: [], head: 0 }));
    const cutoff = now - MINUTE_MS;
    while (log.head < log.times.length && (log.times[log.head] as number) <= cutoff) log.head++;
    if (log.head >= 1024 && log.head * 2 >= log.times.length) {
      log.times = log.times.slice(log.head); // the expired front, once it is most of the array
      log.head = 0;
    }
    if (log.times.length - log.head >= this.limits.messagesPerIpPerMinute) return false;
    log.times.push(now);
    return true;
  }

  /** Forgets the IPs with no message in the last minute (call it now and then). */
  prune(): void {
    const cutoff = this.now() - MINUTE_MS;
    for (const [ip, log] of this.sent) {
      const last = log.times[log.times.length - 1];
      if (last === undefined || last <= cutoff) this.sent.delete(ip);
    }
  }

  /** How many IPs are tracked (for tests). */
  get trackedIps(): number {
    return new Set([...this.open.keys(), ...this.sent.keys()]).size;
  }
}
import type { Clock } from "@burnbox/service-kit/runtime";
