import type { emailsRoutes } from "@burnbox/contracts";
import type { Handlers } from "@burnbox/service-kit";
import type { InboxDeps } from "../domain/deps";
import { deleteEmail } from "../domain/emails/delete-email.use-case";
import { getAttachment } from "../domain/emails/get-attachment.use-case";
import { getEmail } from "../domain/emails/get-email.use-case";
import { getRawEmail } from "../domain/emails/get-raw-email.use-case";
import { listEmails } from "../domain/emails/list-emails.use-case";
import { markAllEmailsRead } from "../domain/emails/mark-all-emails-read.use-case";
import { updateEmail } from "../domain/emails/update-email.use-case";
import { getFile } from "../domain/files/get-file.use-case";
import { sendDownload } from "./download";

export const emailsHandlers = (deps: InboxDeps): Handlers<typeof emailsRoutes> => ({
  listEmails: ({ ctx, params, query }) => listEmails(deps, ctx, { inboxId: params.id, page: query }),
  getEmail: ({ ctx, params }) => getEmail(deps, ctx, { emailId: params.id }),
  updateEmail: ({ ctx, params, body }) => updateEmail(deps, ctx, { emailId: params.id, body }),
  deleteEmail: ({ ctx, params }) => deleteEmail(deps, ctx, { emailId: params.id }),
  markAllEmailsRead: ({ ctx, params }) => markAllEmailsRead(deps, ctx, { inboxId: params.id }),
  getAttachment: async ({ ctx, params, http }) =>
    sendDownload(http.res, await getAttachment(deps, ctx, { emailId: params.id, attachmentId: params.aid })),
  getRawEmail: async ({ ctx, params, http }) => sendDownload(http.res, await getRawEmail(deps, ctx, { emailId: params.id })),
  getFile: async ({ ctx, query, http }) => sendDownload(http.res, await getFile(deps, ctx, { key: query.key })),
});
