import type { Readable } from "node:stream";

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
  /**
   * Removes these objects (absent ones are no error), a bounded number of requests at a time: the
   * TTL cleanup's files of each batch of deleted rows, by the keys the rows held.
   */
  removeKeys(keys: string[]): Promise<void>;
  /** Throws when the store cannot be written (readiness check). */
  check(): Promise<void>;
  /** Releases its connections. */
  close(): void;
}
