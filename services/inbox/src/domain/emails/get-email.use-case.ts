import type { Email } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import type { InboxDeps } from "../deps";
import { authorizeInbox } from "../inboxes/inbox-access";

/** One email with its attachments' metadata; 404 "email" whenever its inbox is not the caller's to see. */
export async function getEmail(deps: InboxDeps, ctx: RequestCtx, input: { emailId: string }): Promise<Email> {
  const located = await deps.data.repos.emails.locate(input.emailId);
  if (!located) throw errors.notFound("email");
  const scope = await authorizeInbox(deps, ctx, located.inbox, "team.emails.view", "email");
  const email = await deps.data.repos.emails.get(scope, input.emailId);
  if (!email) throw errors.notFound("email");
  return email;
}
