import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import type { InboxDeps } from "../deps";
import { downloadOf, type Download } from "../files/download";
import { authorizeInbox } from "../inboxes/inbox-access";

/** The original message exactly as received, as a `message/rfc822` download. */
export async function getRawEmail(deps: InboxDeps, ctx: RequestCtx, input: { emailId: string }): Promise<Download> {
  const located = await deps.data.repos.emails.locate(input.emailId);
  if (!located) throw errors.notFound("email");
  const scope = await authorizeInbox(deps, ctx, located.inbox, "team.emails.view", "email");
  const file = await deps.data.repos.emails.rawMessage(scope, input.emailId);
  if (!file) throw errors.notFound("email");
  return downloadOf(deps, file);
}
