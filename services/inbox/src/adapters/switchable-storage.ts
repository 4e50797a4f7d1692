import type { Readable } from "node:stream";
import type { DownloadAs, MessageStore } from "../domain/message-store";

/** How long a replaced store stays open for the operations already running on it. */
const RETIRE_AFTER_MS = 60_000;

/**
 * The message store in use, switchable at run time (the saved platform storage changed) without a
 * restart. New objects go to the current store. Reads and removals also reach the configured
 * store (`storage.*`), so the mail stored there before a switch stays readable and deletable.
 */
export class SwitchableStore implements MessageStore {
  private current: MessageStore;

  constructor(private readonly configured: MessageStore) {
    this.current = configured;
  }

  /** The store of the configuration (`storage.*`), in use while no platform storage is saved. */
  get configuredStore(): MessageStore {
    return this.configured;
  }

  /** Makes `next` the current store; the replaced one (unless it is the configured store) closes a minute later. */
  use(next: MessageStore): void {
    const old = this.current;
    this.current = next;
    if (old !== this.configured && old !== next) setTimeout(() => old.close(), RETIRE_AFTER_MS).unref();
  }

  /** The stores a read may find an object in: the current one first. */
  private stores(): MessageStore[] {
    return this.current === this.configured ? [this.current] : [this.current, this.configured];
  }

  put(key: string, data: Buffer): Promise<void> {
    return this.current.put(key, data);
  }

  async get(key: string): Promise<Buffer> {
    const holder = await this.holderOf(key);
    return (holder ?? this.current).get(key);
  }

  async open(key: string): Promise<Readable | null> {
    for (const store of this.stores()) {
      const body = await store.open(key);
      if (body) return body;
    }
    return null;
  }

  async has(key: string): Promise<boolean> {
    return (await this.holderOf(key)) !== null;
  }

  async downloadUrl(key: string, as: DownloadAs): Promise<string | null> {
    const stores = this.stores();
    if (stores.length === 1) return this.current.downloadUrl(key, as);
    const holder = await this.holderOf(key);
    return holder ? holder.downloadUrl(key, as) : null;
  }

  async removeFolder(prefix: string): Promise<void> {
    await Promise.all(this.stores().map((s) => s.removeFolder(prefix)));
  }

  async removeKeys(keys: string[]): Promise<void> {
    await Promise.all(this.stores().map((s) => s.removeKeys(keys)));
  }

  check(): Promise<void> {
    return this.current.check();
  }

  close(): void {
    for (const s of this.stores()) s.close();
  }

  private async holderOf(key: string): Promise<MessageStore | null> {
    for (const store of this.stores()) if (await store.has(key)) return store;
    return null;
  }
}
