import { EventType } from "@burnbox/contracts";
import { removeInBatches, type Logger, type OrgScope, type TeamScope } from "@burnbox/service-kit";
import type { InboxDeps } from "../deps";

/** Inboxes removed per transaction: a large team never holds one huge transaction. */
export const REMOVAL_BATCH = 100;

export type RemovedTenant = { kind: "org"; scope: OrgScope } | { kind: "team"; scope: TeamScope };

/**
 * Removes every inbox of an org or team tenancy deleted (`org.deleted`, `team.deleted`), with its
 * mail and files, so nothing of it is readable or receives mail afterwards. The removal is recorded
 * first (a create in flight commits before, a later one is refused), then inboxes go batch by
 * batch, each with `inbox.deleted` (realtime closes their sockets); files after each commit. A
 * redelivered event removes what is left; once done, the event is recorded as handled.
 */
export async function removeTenantInboxes(
  deps: InboxDeps,
  logger: Logger,
  input: { consumer: string; eventId: string; tenant: RemovedTenant },
): Promise<void> {
  const { consumer, eventId, tenant } = input;
  if (await deps.data.repos.processedEvents.seen(consumer, eventId)) return;
  await deps.data.write((repos) => repos.tenants.markRemoved(tenant));
  const deletedAt = new Date(deps.now()).toISOString();
  await removeInBatches({
    size: REMOVAL_BATCH,
    logger,
    what: `inboxes of ${tenant.kind}`,
    batch: async (size) => {
      const removed = await deps.data.write(async (repos, events) => {
        const rows = await repos.inboxes.removeBatchOf(tenant.scope, size);
        for (const r of rows) {
          events.event(EventType.inboxDeleted, {
            org_id: tenant.scope.orgId,
            team_id: r.teamId,
            data: { inbox_id: r.id, team_id: r.teamId, full_address: r.fullAddress, deleted_at: deletedAt },
          });
        }
        return rows;
      });
      // files after the commit: a failed removal leaves orphaned files, never a row without its mail
      await Promise.all(removed.map((r) => deps.storage.removeFolder(r.id)));
      return removed.length;
    },
  });
  await deps.data.write(async (repos) => {
    await repos.processedEvents.claim(consumer, eventId);
  });
}
