import type { Email, UpdateEmailBody } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import type { InboxDeps } from "../deps";
import { authorizeInbox } from "../inboxes/inbox-access";

/** Marks an email read or unread. */
export async function updateEmail(deps: InboxDeps, ctx: RequestCtx, input: { emailId: string; body: UpdateEmailBody }): Promise<Email> {
  const located = await deps.data.repos.emails.locate(input.emailId);
  if (!located) throw errors.notFound("email");
  const scope = await authorizeInbox(deps, ctx, located.inbox, "team.emails.manage", "email");
  return deps.data.write(async (repos, events) => {
    const email = await repos.emails.setRead(scope, input.emailId, input.body.is_read);
    if (!email) throw errors.notFound("email");
    events.audit({
      ctx,
      action: "email.updated",
      org_id: scope.orgId,
      team_id: scope.teamId,
      target: { type: "email", id: email.id, name: email.subject },
      metadata: { inbox_id: email.inbox_id, is_read: email.is_read },
    });
    return email;
  });
}
