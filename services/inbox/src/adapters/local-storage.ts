import fs, { createReadStream } from "node:fs";
import { mkdir, open, readFile, rename, rm, stat, unlink, writeFile } from "node:fs/promises";
import { randomBytes } from "node:crypto";
import path from "node:path";
import type { Readable } from "node:stream";
import { promisify } from "node:util";
import { LRUCache } from "lru-cache";
import type { MessageStore } from "../domain/message-store";

const isMissing = (err: unknown) => (err as { code?: string }).code === "ENOENT";

/** Written with blocking calls below this size (see `LocalStorage.put`); larger writes go through the thread pool. */
const SMALL_WRITE_BYTES = 256 * 1024;

/** Folders a store remembers as made and durable (`LocalStorage.settled`): an email's, while its files are put, with room to spare. */
const SETTLED_FOLDERS = 4096;

/** Files unlinked at once by `removeKeys`. */
const REMOVALS_IN_FLIGHT = 16;

const fdatasync = promisify(fs.fdatasync);
const fsync = promisify(fs.fsync);
const write = promisify(fs.write);

/** Writes all of `data` at the start of the new file `fd`: blocking when small, through the thread pool when large. */
async function writeAll(fd: number, data: Buffer): Promise<void> {
  let offset = 0;
  while (offset < data.length) {
    const rest = data.length - offset;
    offset +=
      rest < SMALL_WRITE_BYTES ? fs.writeSync(fd, data, offset, rest, offset) : (await write(fd, data, offset, rest, offset)).bytesWritten;
  }
}

/**
 * fsync of directories, coalesced: a sync asked while one of the same directory is running waits
 * for it and is served by the next one, which starts after it and so covers every entry made
 * before it was asked for. Concurrent messages to one inbox share the sync of its folder.
 */
class DirectorySync {
  private readonly dirs = new Map<string, Array<{ resolve(): void; reject(err: unknown): void }>>();

  /** `synced`: told of each directory fsync once it is done (the tests' view of what was flushed). */
  constructor(private readonly synced?: (dir: string) => void) {}

  sync(dir: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const waiting = this.dirs.get(dir);
      if (waiting) {
        waiting.push({ resolve, reject });
        return;
      }
      const queue = [{ resolve, reject }];
      this.dirs.set(dir, queue);
      void this.drain(dir, queue);
    });
  }

  private async drain(dir: string, queue: Array<{ resolve(): void; reject(err: unknown): void }>): Promise<void> {
    while (queue.length > 0) {
      const served = queue.splice(0);
      try {
        const fd = fs.openSync(dir, fs.constants.O_RDONLY | fs.constants.O_DIRECTORY);
        try {
          await fsync(fd);
        } finally {
          fs.closeSync(fd);
        }
        this.synced?.(dir);
        for (const w of served) w.resolve();
      } catch (err) {
        for (const w of served) w.reject(err);
      }
    }
    this.dirs.delete(dir);
  }
}

/**
 * Message bodies and attachments on the local filesystem (one host), one folder per inbox, so
 * deleting an inbox removes its files in one call. A put resolves once the bytes and every
 * directory entry leading to them are durable, and a crash never leaves a half-written object
 * that anything refers to (see `put`).
 */
export class LocalStorage implements MessageStore {
  private readonly root: string;
  private readonly dirSync: DirectorySync;
  /**
   * Folders a put of this process made (and fsynced into their parents) or found already there,
   * once that put is done: a later put into one skips its mkdir, which would make nothing (an
   * email's attachments after its message) and so would sync no parent either. Only the
   * mkdir: the file's own folder is fsynced for every put. A remembered folder removed since (an
   * email's or inbox's delete, the TTL cleanup, in this process or another) is caught by the
   * file's open (ENOENT): it is forgotten and the put starts again with the mkdir, so a folder
   * made again is fsynced into its parent again.
   */
  private readonly settled = new LRUCache<string, true>({ max: SETTLED_FOLDERS });

  /** `opts.synced`: told of every directory fsync as it completes (for the tests). */
  constructor(root: string, opts: { synced?: (dir: string) => void } = {}) {
    this.root = path.resolve(root);
    this.dirSync = new DirectorySync(opts.synced);
  }

  private resolve(key: string): string {
    const p = path.resolve(this.root, key);
    if (!p.startsWith(`${this.root}${path.sep}`)) throw new Error("storage key escapes the storage root");
    return p;
  }

  /**
   * What crash safety needs here, and no more:
   * - The object is created in place, exclusively (O_EXCL), with no temporary file and rename.
   *   Keys are `<inbox>/<email>/<file>` with a fresh email id, and the email's row (the only
   *   thing that names a key) is written only after this resolves: a file torn by a crash is
   *   never referred to (as a file written whole before a crash without its row, it is an
   *   orphan until its inbox's folder is removed), and a retried message gets a new email id.
   *   A key that already exists (never from the intake) is replaced the old way: a fsynced
   *   temporary file renamed over it, so a reader sees the old bytes or the new ones.
   * - The data is fdatasync()ed (for a new file that includes the size needed to read it back),
   *   and the file's folder is fsynced (its entry), and so is the parent of every folder the put
   *   created (the email's folder in the inbox's, the inbox's in the root): without those a crash
   *   may keep the file but lose the path to it. The flushes run together, in no order (until
   *   put resolves, a torn or unreachable file is one nothing refers to); the folder syncs are
   *   coalesced across concurrent puts (`DirectorySync`): all the messages to one inbox share its
   *   folder's. (A put into a folder that another put is creating at that moment counts on that
   *   put's sync: the intake puts an email's files one after the other, the raw message first.)
   * - A folder this store already made or found, with its entries durable (`settled`), is not
   *   made again: the put starts at the open, which finds it if it was removed since.
   * mkdir, open, a small write and close do not wait for the disk (page cache and journal in
   * memory) and are cheaper as blocking calls than as thread-pool round trips; the calls that
   * wait for the disk (fdatasync, fsync) and large writes stay asynchronous.
   */
  async put(key: string, data: Buffer): Promise<void> {
    const p = this.resolve(key);
    const dir = path.dirname(p);
    const remembered = this.settled.has(dir);
    const created = remembered ? undefined : fs.mkdirSync(dir, { recursive: true });
    let fd: number;
    try {
      fd = fs.openSync(p, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL, 0o666);
    } catch (err) {
      if ((err as { code?: string }).code === "EEXIST") return this.replace(p, data);
      if (remembered && isMissing(err)) {
        // removed since it was remembered: made again, and synced into its parent, as a new folder
        this.settled.delete(dir);
        return this.put(key, data);
      }
      throw err;
    }
    try {
      await writeAll(fd, data);
    } catch (err) {
      fs.closeSync(fd);
      throw err;
    }
    // the data and the entries are flushed at once (one journal commit can serve them all): their
    // order does not matter, as nothing refers to the file before put resolves
    const flushes = [fdatasync(fd).finally(() => fs.closeSync(fd)), this.dirSync.sync(dir)];
    // each folder this put created, from the first (topmost) down: its entry is in its parent
    if (created) {
      for (let d = dir; d.length >= created.length && d !== this.root; d = path.dirname(d)) {
        flushes.push(this.dirSync.sync(path.dirname(d)));
      }
    }
    await Promise.all(flushes);
    this.settled.set(dir, true);
  }

  /** Replaces an existing object atomically: a fsynced temporary file renamed over it, then its folder fsynced. */
  private async replace(p: string, data: Buffer): Promise<void> {
    const tmp = `${p}.${randomBytes(6).toString("hex")}.tmp`;
    const file = await open(tmp, "w");
    try {
      await file.writeFile(data);
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(tmp, p);
    await this.dirSync.sync(path.dirname(p));
  }

  get(key: string): Promise<Buffer> {
    return readFile(this.resolve(key));
  }

  async open(key: string): Promise<Readable | null> {
    const p = this.resolve(key);
    const stream = createReadStream(p);
    try {
      await new Promise<void>((resolve, reject) => {
        stream.once("open", () => resolve());
        stream.once("error", reject);
      });
      return stream;
    } catch (err) {
      stream.destroy();
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async has(key: string): Promise<boolean> {
    try {
      await stat(this.resolve(key));
      return true;
    } catch (err) {
      if (isMissing(err)) return false;
      throw err;
    }
  }

  downloadUrl(): Promise<string | null> {
    return Promise.resolve(null);
  }

  async removeFolder(prefix: string): Promise<void> {
    // the folders it held stay remembered: a put into one finds it missing (see `settled`)
    await rm(this.resolve(prefix), { recursive: true, force: true });
  }

  async removeKeys(keys: string[]): Promise<void> {
    const queue = [...keys];
    await Promise.all(
      Array.from({ length: Math.min(REMOVALS_IN_FLIGHT, queue.length) }, async () => {
        for (let key = queue.pop(); key !== undefined; key = queue.pop())
          await unlink(this.resolve(key)).catch((err: unknown) => {
            if (!isMissing(err)) throw err;
          });
      }),
    );
  }

  async check(): Promise<void> {
    await mkdir(this.root, { recursive: true });
    await writeFile(path.join(this.root, ".probe"), "ok");
  }

  close(): void {
    // nothing to release
  }
}
