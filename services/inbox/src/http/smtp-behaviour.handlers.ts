import type { smtpBehaviourRoutes } from "@burnbox/contracts";
import type { Handlers } from "@burnbox/service-kit/http";
import type { InboxDeps } from "../domain/deps";
import { getEmailTranscript } from "../domain/smtp/get-email-transcript.use-case";
import { listSmtpLog } from "../domain/smtp/list-smtp-log.use-case";

export const smtpBehaviourHandlers = (deps: InboxDeps): Handlers<typeof smtpBehaviourRoutes> => ({
  getEmailTranscript: ({ ctx, params }) => getEmailTranscript(deps, ctx, { emailId: params.id }),
  listSmtpLog: ({ ctx, params, query }) => listSmtpLog(deps, ctx, { inboxId: params.id, page: query }),
});
