import fs, { createReadStream } from "node:fs";
import { mkdir, open, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { Readable } from "node:stream";
import { promisify } from "node:util";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";

/** How a download is presented to the browser: a file to save, never a page to render. */
export interface DownloadAs {
  /** The whole `Content-Disposition` header value. */
  disposition: string;
  contentType: string;
}

/** Where raw messages and attachments live; keys are `<inbox id>/<email id>/<file>` and never come from clients. */
export interface MessageStore {
  /** Resolves only once the object is durable (fsynced, or acknowledged by the object store). */
  put(key: string, data: Buffer): Promise<void>;
  get(key: string): Promise<Buffer>;
  /** The object's bytes as a stream, or null when it does not exist. */
  open(key: string): Promise<Readable | null>;
  /** Whether the object exists. */
  has(key: string): Promise<boolean>;
  /** A URL the client fetches the object from directly, or null when this store serves the bytes itself. */
  downloadUrl(key: string, as: DownloadAs): Promise<string | null>;
  /** Removes every object under `prefix` (an inbox id: all of its mail; `<inbox>/<email>`: one email). */
  removeFolder(prefix: string): Promise<void>;
  /** Throws when the store cannot be written (readiness check). */
  check(): Promise<void>;
  /** Releases its connections. */
  close(): void;
}

const isMissing = (err: unknown) => (err as { code?: string }).code === "ENOENT";

/** Written with blocking calls below this size (see `LocalStorage.put`); larger writes go through the thread pool. */
const SMALL_WRITE_BYTES = 256 * 1024;

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
  private readonly dirSync = new DirectorySync();
  constructor(root: string) {
    this.root = path.resolve(root);
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
   * mkdir, open, a small write and close do not wait for the disk (page cache and journal in
   * memory) and are cheaper as blocking calls than as thread-pool round trips; the calls that
   * wait for the disk (fdatasync, fsync) and large writes stay asynchronous.
   */
  async put(key: string, data: Buffer): Promise<void> {
    const p = this.resolve(key);
    const dir = path.dirname(p);
    const created = fs.mkdirSync(dir, { recursive: true });
    let fd: number;
    try {
      fd = fs.openSync(p, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL, 0o666);
    } catch (err) {
      if ((err as { code?: string }).code === "EEXIST") return this.replace(p, data);
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
    await rm(this.resolve(prefix), { recursive: true, force: true });
  }

  async check(): Promise<void> {
    await mkdir(this.root, { recursive: true });
    await writeFile(path.join(this.root, ".probe"), "ok");
  }

  close(): void {
    // nothing to release
  }
}

export interface S3Settings {
  /** Any S3-compatible endpoint (MinIO, R2, s3rver...); AWS's own when omitted. */
  endpoint?: string | undefined;
  bucket: string;
  region: string;
  access_key_id?: string | undefined;
  secret_access_key?: string | undefined;
  force_path_style: boolean;
}

/** How long a presigned download URL is valid (contract notes: 15 minutes). */
export const PRESIGNED_URL_TTL_SECONDS = 15 * 60;

const isNoSuchKey = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === "NoSuchKey" || e.name === "NotFound" || e.$metadata?.httpStatusCode === 404;
};

/**
 * Objects in an S3-compatible store, so that several inbox API and SMTP intake replicas share
 * the mail. A put resolves on the store's acknowledgement; downloads are presigned URLs with the
 * disposition and content type forced by the signature.
 */
export class S3Storage implements MessageStore {
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(settings: S3Settings) {
    this.bucket = settings.bucket;
    this.client = new S3Client({
      region: settings.region,
      forcePathStyle: settings.force_path_style,
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      ...(settings.access_key_id && settings.secret_access_key
        ? { credentials: { accessKeyId: settings.access_key_id, secretAccessKey: settings.secret_access_key } }
        : {}),
    });
  }

  async put(key: string, data: Buffer): Promise<void> {
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: data, ContentLength: data.length }));
  }

  async get(key: string): Promise<Buffer> {
    const out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
    if (!out.Body) throw new Error(`empty object ${key}`);
    return Buffer.from(await out.Body.transformToByteArray());
  }

  async open(key: string): Promise<Readable | null> {
    try {
      const out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      if (!out.Body) return null;
      return out.Body instanceof Readable ? out.Body : Readable.fromWeb(out.Body.transformToWebStream() as never);
    } catch (err) {
      if (isNoSuchKey(err)) return null;
      throw err;
    }
  }

  async has(key: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return true;
    } catch (err) {
      if (isNoSuchKey(err)) return false;
      throw err;
    }
  }

  downloadUrl(key: string, as: DownloadAs): Promise<string | null> {
    const command = new GetObjectCommand({
      Bucket: this.bucket,
      Key: key,
      ResponseContentDisposition: as.disposition,
      ResponseContentType: as.contentType,
    });
    return getSignedUrl(this.client, command, { expiresIn: PRESIGNED_URL_TTL_SECONDS });
  }

  async removeFolder(prefix: string): Promise<void> {
    const folder = `${prefix.replace(/\/+$/, "")}/`;
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: folder, ContinuationToken: token }));
      const keys = (page.Contents ?? []).flatMap((o) => (o.Key ? [o.Key] : []));
      await Promise.all(keys.map((Key) => this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key }))));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async check(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
  }

  close(): void {
    this.client.destroy();
  }
}
