import type { Handlers } from "@burnbox/service-kit";
import type { InboxDeps } from "../domain/deps";
import { getEmail } from "../domain/emails/get-email.use-case";
import { listEmails } from "../domain/emails/list-emails.use-case";
import type { EmailsRoutes } from "./routes";

export const emailsHandlers = (deps: InboxDeps): Handlers<EmailsRoutes> => ({
  listEmails: ({ ctx, params, query }) => listEmails(deps, ctx, { inboxId: params.id, page: query }),
  getEmail: ({ ctx, params }) => getEmail(deps, ctx, { emailId: params.id }),
});
