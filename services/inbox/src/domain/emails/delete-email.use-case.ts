import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import type { InboxDeps } from "../deps";
import { authorizeInbox } from "../inboxes/inbox-access";

/** Deletes an email and, after the commit, its raw message and attachments. */
export async function deleteEmail(deps: InboxDeps, ctx: RequestCtx, input: { emailId: string }): Promise<void> {
  const located = await deps.data.repos.emails.locate(input.emailId);
  if (!located) throw errors.notFound("email");
  const scope = await authorizeInbox(deps, ctx, located.inbox, "team.emails.manage", "email");
  const removed = await deps.data.write(async (repos, events) => {
    const email = await repos.emails.remove(scope, input.emailId);
    if (!email) throw errors.notFound("email");
    events.audit({
      ctx,
      action: "email.deleted",
      org_id: scope.orgId,
      team_id: scope.teamId,
      target: { type: "email", id: input.emailId, name: email.subject },
      metadata: { inbox_id: email.inboxId },
    });
    return email;
  });
  await deps.storage.removeFolder(`${removed.inboxId}/${input.emailId}`);
}
