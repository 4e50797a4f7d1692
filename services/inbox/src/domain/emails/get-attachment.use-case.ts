import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import type { InboxDeps } from "../deps";
import { downloadOf, type Download } from "../files/download";
import { authorizeInbox } from "../inboxes/inbox-access";

/** One attachment of one email, as a download; an attachment of another email is a 404 like an unknown one. */
export async function getAttachment(deps: InboxDeps, ctx: RequestCtx, input: { emailId: string; attachmentId: string }): Promise<Download> {
  const located = await deps.data.repos.emails.locate(input.emailId);
  if (!located) throw errors.notFound("email");
  const scope = await authorizeInbox(deps, ctx, located.inbox, "team.emails.view", "email");
  const file = await deps.data.repos.emails.attachment(scope, input.emailId, input.attachmentId);
  if (!file) throw errors.notFound("attachment");
  return downloadOf(deps, file);
}
