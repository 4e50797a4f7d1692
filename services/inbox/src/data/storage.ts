import { createReadStream } from "node:fs";
import { mkdir, open, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { Readable } from "node:stream";
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

/**
 * Message bodies and attachments on the local filesystem (one host), one folder per inbox, so
 * deleting an inbox removes its files in one call. Writes go to a temporary file that is fsynced,
 * renamed into place, and its folder fsynced: a crash never leaves a half-written object.
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
    const dir = path.dirname(p);
    await mkdir(dir, { recursive: true });
    const tmp = `${p}.${randomBytes(6).toString("hex")}.tmp`;
    const file = await open(tmp, "w");
    try {
      await file.writeFile(data);
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(tmp, p);
    const folder = await open(dir, "r");
    try {
      await folder.sync();
    } finally {
      await folder.close();
    }
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
