import type { SmtpTranscript } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import type { InboxDeps } from "../deps";
import { authorizeInbox } from "../inboxes/inbox-access";

/** The SMTP transcript an email was received with; 404 "transcript" for mail stored before transcripts were kept. */
export async function getEmailTranscript(deps: InboxDeps, ctx: RequestCtx, input: { emailId: string }): Promise<SmtpTranscript> {
  const located = await deps.data.repos.emails.locate(input.emailId);
  if (!located) throw errors.notFound("email");
  const scope = await authorizeInbox(deps, ctx, located.inbox, "team.emails.view", "email");
  const transcript = await deps.data.hot.smtpLog.transcriptOf(scope, input.emailId);
  if (!transcript) throw errors.notFound("transcript");
  return transcript;
}
