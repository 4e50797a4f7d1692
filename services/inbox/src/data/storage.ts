import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";

/** Where raw messages and attachments live; keys are `<inbox id>/<email id>/<file>`. */
export interface MessageStore {
  put(key: string, data: Buffer): Promise<void>;
  get(key: string): Promise<Buffer>;
  /** Removes every object under `prefix` (an inbox id: all of that inbox's mail). */
  removeFolder(prefix: string): Promise<void>;
  /** Throws when the store cannot be written (readiness check). */
  check(): Promise<void>;
}

/**
 * Message bodies and attachments on the local filesystem, one folder per inbox, so deleting an
 * inbox removes its files in one call. Keys never come from clients.
 */
export class LocalStorage implements MessageStore {
  private readonly root: string;
  constructor(root: string) {
    this.root = path.resolve(root);
  }

  private resolve(key: string): string {
    const p = path.resolve(this.root, key);
    if (!p.startsWith(`${this.root}${path.sep}`)) throw new Error("storage key escapes the storage root");
    return p;
  }

  async put(key: string, data: Buffer): Promise<void> {
    const p = this.resolve(key);
    await mkdir(path.dirname(p), { recursive: true });
    await writeFile(p, data);
  }

  get(key: string): Promise<Buffer> {
    return readFile(this.resolve(key));
  }

  async removeFolder(prefix: string): Promise<void> {
    await rm(this.resolve(prefix), { recursive: true, force: true });
  }

  /** Throws when the storage cannot be written (readiness check). */
  async check(): Promise<void> {
    await mkdir(this.root, { recursive: true });
    await writeFile(path.join(this.root, ".probe"), "ok");
  }
}
