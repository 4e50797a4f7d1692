import { simpleParser } from "mailparser";
import { type PreviewQuery, type RenderWidth } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import type { InboxDeps } from "../deps";
import { authorizeInbox } from "../inboxes/inbox-access";
import { renderMail } from "../render-mail";
import type { RenderInput } from "../renderer";

/** A preview's picture and whether it came from the cache. */
export interface Preview {
  png: Buffer;
  cached: boolean;
}

/** Where a preview is kept: beside the email's raw message, so removing the email's folder removes its previews. */
function previewKey(rawKey: string, query: PreviewQuery): string {
  const folder = rawKey.slice(0, rawKey.lastIndexOf("/"));
  return `${folder}/previews/${query.width}-${query.scheme}-${query.images}.png`;
}

/**
 * Extensions section 12: the mail rendered by the renderer deployable, cached in the message
 * storage per email and parameters (the bytes belong in storage, ARCHITECTURE.md). The HTML is
 * the part as it was sent (from the stored raw message, not the sanitized copy the API shows),
 * with its inline `cid:` images made `data:` URLs (mailparser), since the renderer loads nothing
 * else; a mail without HTML is rendered from its text. 404 for a foreign or unknown email.
 */
export async function getEmailPreview(deps: InboxDeps, ctx: RequestCtx, input: { emailId: string; query: PreviewQuery }): Promise<Preview> {
  const located = await deps.data.repos.emails.locate(input.emailId);
  if (!located) throw errors.notFound("email");
  const scope = await authorizeInbox(deps, ctx, located.inbox, "team.emails.view", "email");
  const file = await deps.data.repos.emails.rawMessage(scope, input.emailId);
  if (!file) throw errors.notFound("email");
  const key = previewKey(file.key, input.query);
  if (await deps.storage.has(key)) return { png: await deps.storage.get(key), cached: true };
  const mail = await simpleParser(await deps.storage.get(file.key), { skipTextToHtml: true, skipHtmlToText: true });
  const view = { width: Number(input.query.width) as RenderWidth, scheme: input.query.scheme, images: input.query.images };
  const html = typeof mail.html === "string" && mail.html.trim() ? mail.html : null;
  const content: RenderInput = html !== null ? { html, ...view } : { text: mail.text ?? "", ...view };
  const png = await renderMail(deps.renderer, content);
  await deps.storage.put(key, png);
  return { png, cached: false };
}
