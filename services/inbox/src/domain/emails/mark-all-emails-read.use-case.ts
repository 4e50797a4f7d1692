import type { MarkAllReadResult } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import type { InboxDeps } from "../deps";
import { visibleInbox } from "../inboxes/inbox-access";

/** Marks every email of an inbox read; answers how many were unread. */
export async function markAllEmailsRead(deps: InboxDeps, ctx: RequestCtx, input: { inboxId: string }): Promise<MarkAllReadResult> {
  const scope = await visibleInbox(deps, ctx, input.inboxId, "team.emails.manage");
  return deps.data.write(async (repos, events) => {
    const marked = await repos.emails.markAllRead(scope, input.inboxId);
    events.audit({
      ctx,
      action: "inbox.emails_marked_read",
      org_id: scope.orgId,
      team_id: scope.teamId,
      target: { type: "inbox", id: input.inboxId },
      metadata: { marked },
    });
    return { marked };
  });
}
