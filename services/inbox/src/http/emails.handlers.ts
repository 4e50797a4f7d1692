import type { emailsRoutes } from "@burnbox/contracts";
import { reply, type Handlers } from "@burnbox/service-kit/http";
import type { InboxDeps } from "../domain/deps";
import { checkEmailHtml } from "../domain/emails/check-email-html.use-case";
import { checkEmailLinks } from "../domain/emails/check-email-links.use-case";
import { deleteEmail } from "../domain/emails/delete-email.use-case";
import { getAttachment } from "../domain/emails/get-attachment.use-case";
import { getEmail } from "../domain/emails/get-email.use-case";
import { getRawEmail } from "../domain/emails/get-raw-email.use-case";
import { listEmails } from "../domain/emails/list-emails.use-case";
import { markAllEmailsRead } from "../domain/emails/mark-all-emails-read.use-case";
import { updateEmail } from "../domain/emails/update-email.use-case";
import { waitForEmails, type WaitDeps } from "../domain/emails/wait-for-emails.use-case";
import { getFile } from "../domain/files/get-file.use-case";
import { sendDownload } from "./download";

export const emailsHandlers = (deps: InboxDeps, wd: WaitDeps): Handlers<typeof emailsRoutes> => ({
  listEmails: ({ ctx, params, query }) => listEmails(deps, ctx, { inboxId: params.id, page: query }),
  waitForEmails: async ({ ctx, params, query, http }) => {
    // the caller hung up: the wait ends and frees its slot
    const gone = new AbortController();
    http.res.once("close", () => gone.abort());
    const out = await waitForEmails(deps, wd, ctx, { inboxId: params.id, query, signal: gone.signal });
    if (!("rateLimited" in out)) return out;
    // spec 7.2: not the envelope; Retry-After equals retry_after
    http.res.setHeader("Retry-After", String(out.rateLimited.retry_after));
    http.res.setHeader("X-RateLimit-Remaining", "0");
    return reply(429, out.rateLimited);
  },
  getEmail: ({ ctx, params }) => getEmail(deps, ctx, { emailId: params.id }),
  updateEmail: ({ ctx, params, body }) => updateEmail(deps, ctx, { emailId: params.id, body }),
  deleteEmail: ({ ctx, params }) => deleteEmail(deps, ctx, { emailId: params.id }),
  markAllEmailsRead: ({ ctx, params }) => markAllEmailsRead(deps, ctx, { inboxId: params.id }),
  getAttachment: async ({ ctx, params, http }) =>
    sendDownload(http.res, await getAttachment(deps, ctx, { emailId: params.id, attachmentId: params.aid })),
  getRawEmail: async ({ ctx, params, http }) => sendDownload(http.res, await getRawEmail(deps, ctx, { emailId: params.id })),
  checkEmailHtml: ({ ctx, params }) => checkEmailHtml(deps, ctx, { emailId: params.id }),
  checkEmailLinks: ({ ctx, params }) => checkEmailLinks(deps, ctx, { emailId: params.id }),
  getFile: async ({ ctx, query, http }) => sendDownload(http.res, await getFile(deps, ctx, { key: query.key })),
});
