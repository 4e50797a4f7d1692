const MINUTE_MS = 60_000;

/**
 * The intake's per-client-IP limits, in this process: open connections at once, and messages in
 * any sliding minute. Counts are dropped as soon as an IP has nothing open or recent, so memory
 * follows the live clients, not every address ever seen.
 */
export class IntakeLimits {
  private readonly open = new Map<string, number>();
  private readonly sent = new Map<string, number[]>();

  constructor(
    private readonly limits: { connectionsPerIp: number; messagesPerIpPerMinute: number },
    private readonly now: () => number = Date.now,
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
    const recent = (this.sent.get(ip) ?? []).filter((t) => t > now - MINUTE_MS);
    if (recent.length >= this.limits.messagesPerIpPerMinute) {
      this.sent.set(ip, recent);
      return false;
    }
    recent.push(now);
    this.sent.set(ip, recent);
    return true;
  }

  /** Forgets the IPs with no message in the last minute (call it now and then). */
  prune(): void {
    const cutoff = this.now() - MINUTE_MS;
    for (const [ip, times] of this.sent) if (!times.some((t) => t > cutoff)) this.sent.delete(ip);
  }

  /** How many IPs are tracked (for tests). */
  get trackedIps(): number {
    return new Set([...this.open.keys(), ...this.sent.keys()]).size;
  }
}
