import { LRUCache } from "lru-cache";

/**
 * The most one mail-client session keeps of the messages it has read (POP3's raw bytes, IMAP's
 * parsed messages, which hold theirs): a client that asks for the same message again in a session
 * (TOP then RETR, BODYSTRUCTURE then BODY[], a retried RETR) is answered without reading storage
 * again, and a session of many big messages holds no more than this.
 */
export const SESSION_CACHE_BYTES = 16 * 1024 * 1024;

/**
 * A per-session cache by email id within a byte budget (lru-cache's `maxSize`), the least recently
 * used dropped first. A value bigger than the whole budget is not kept (it is read again when asked
 * for again), and nothing is dropped for it.
 */
export class SessionCache<V extends NonNullable<unknown>> {
  private readonly entries: LRUCache<string, V>;

  constructor(maxBytes: number = SESSION_CACHE_BYTES) {
    this.entries = new LRUCache<string, V>({ maxSize: maxBytes });
  }

  /** The bytes held now. */
  get bytes(): number {
    return this.entries.calculatedSize;
  }

  get(key: string): V | undefined {
    return this.entries.get(key);
  }

  set(key: string, value: V, bytes: number): void {
    this.entries.delete(key);
    // lru-cache counts sizes from 1: an empty message is held as one byte
    if (bytes <= this.entries.maxSize) this.entries.set(key, value, { size: Math.max(1, bytes) });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }
}
