import { Readable } from "node:stream";
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import type { DownloadAs, MessageStore } from "../domain/message-store";

export interface S3Settings {
  /** Any S3-compatible endpoint (MinIO, R2, s3rver...); AWS's own when omitted. */
  endpoint?: string | undefined;
  bucket: string;
  region: string;
  access_key_id?: string | undefined;
  secret_access_key?: string | undefined;
  force_path_style: boolean;
}

/** Keys per DeleteObjects request: S3's limit. */
const DELETE_BATCH = 1000;

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

  /** One DeleteObjects request per 1,000 keys (S3's most per request), two requests in flight. */
  async removeKeys(keys: string[]): Promise<void> {
    const chunks: string[][] = [];
    for (let i = 0; i < keys.length; i += DELETE_BATCH) chunks.push(keys.slice(i, i + DELETE_BATCH));
    await Promise.all(
      Array.from({ length: Math.min(2, chunks.length) }, async () => {
        for (let chunk = chunks.shift(); chunk !== undefined; chunk = chunks.shift()) {
          const out = await this.client.send(
            new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: chunk.map((Key) => ({ Key })), Quiet: true } }),
          );
          const failed = out.Errors ?? [];
          if (failed.length > 0) throw new Error(`${failed.length} objects not removed, first ${failed[0]?.Key}: ${failed[0]?.Code}`);
        }
      }),
    );
  }

  async check(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
  }

  close(): void {
    this.client.destroy();
  }
}
