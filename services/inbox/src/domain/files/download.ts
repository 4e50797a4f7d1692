import type { Readable } from "node:stream";
import { errors } from "@burnbox/service-kit/runtime";
import type { StoredFile } from "../../data/email.repository";
import type { InboxDeps } from "../deps";
import { attachmentDisposition } from "./content-disposition";

/** What a download route answers: a redirect to the object store, or the bytes with their headers. */
export type Download = { redirect: string } | { body: Readable; disposition: string; contentType: string };

const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/;

/** The stored content type when it is a plain `type/subtype`; anything else is served as opaque bytes. */
export const servedContentType = (stored: string): string => {
  const t = stored.trim().toLowerCase();
  return MEDIA_TYPE.test(t) ? t : "application/octet-stream";
};

/** A stored file as a download: the store's presigned URL when it has one, else a stream of its bytes. */
export async function downloadOf(deps: InboxDeps, file: StoredFile): Promise<Download> {
  const as = { disposition: attachmentDisposition(file.filename), contentType: servedContentType(file.contentType) };
  const url = await deps.storage.downloadUrl(file.key, as);
  if (url) return { redirect: url };
  const body = await deps.storage.open(file.key);
  if (!body) throw errors.notFound("file");
  return { body, ...as };
}
