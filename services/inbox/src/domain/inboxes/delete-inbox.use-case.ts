import { EventType } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import type { InboxDeps } from "../deps";
import { visibleInbox } from "./inbox-access";

/**
 * Deletes an inbox with its mail; `inbox.deleted` tells realtime to close its sockets. Files go
 * after the commit: a failed removal leaves orphaned files, never a row without its mail.
 */
export async function deleteInbox(deps: InboxDeps, ctx: RequestCtx, input: { inboxId: string }): Promise<void> {
  const scope = await visibleInbox(deps, ctx, input.inboxId, "team.inboxes.manage");
  const deletedAt = new Date(deps.now()).toISOString();
  await deps.data.write(async (repos, events) => {
    const removed = await repos.inboxes.remove(scope, input.inboxId);
    if (!removed) throw errors.notFound("inbox");
    events.event(EventType.inboxDeleted, {
      org_id: scope.orgId,
      team_id: scope.teamId,
      data: {
        inbox_id: removed.id,
        team_id: scope.teamId,
        full_address: removed.fullAddress,
        deleted_at: deletedAt,
        was_active: removed.isActive,
      },
    });
    events.audit({
      ctx,
      action: "inbox.deleted",
      org_id: scope.orgId,
      team_id: scope.teamId,
      target: { type: "inbox", id: removed.id },
      metadata: { full_address: removed.fullAddress },
    });
  });
  await deps.storage.removeFolder(input.inboxId);
}
