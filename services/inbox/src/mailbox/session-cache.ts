/**
 * The most one mail-client session keeps of the messages it has read (POP3's raw bytes, IMAP's
 * parsed messages, which hold theirs): a client that asks for the same message again in a session
 * (TOP then RETR, BODYSTRUCTURE then BODY[], a retried RETR) is answered without reading storage
 * again, and a session of many big messages holds no more than this.
 */
export const SESSION_CACHE_BYTES = 16 * 1024 * 1024;

/**
 * A per-session cache by email id within a byte budget, the least recently used dropped first. A
 * value bigger than the whole budget is not kept (it is read again when asked for again).
 */
export class SessionCache<V> {
  private readonly entries = new Map<string, { value: V; bytes: number }>();
  private held = 0;

  constructor(private readonly maxBytes: number = SESSION_CACHE_BYTES) {}

  /** The bytes held now. */
  get bytes(): number {
    return this.held;
  }

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    // the most recently used last: Map keeps insertion order
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V, bytes: number): void {
    this.delete(key);
    if (bytes > this.maxBytes) return;
    this.entries.set(key, { value, bytes });
    this.held += bytes;
    for (const [k, entry] of this.entries) {
      if (this.held <= this.maxBytes) break;
      this.entries.delete(k);
      this.held -= entry.bytes;
    }
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.held -= entry.bytes;
  }
}
