import { EventType } from "@burnbox/contracts";
import type { Logger } from "@burnbox/service-kit/runtime";
import { removeInBatches, removeTenantOnce, type TenantRemoval } from "@burnbox/tenant-removal";
import { snapshotFolder } from "../../data/snapshot.repository";
import type { InboxDeps } from "../deps";

/** Inboxes removed per transaction: a large team never holds one huge transaction. */
export const REMOVAL_BATCH = 100;

/**
 * Removes every inbox of an org or team tenancy deleted (`org.deleted`, `team.deleted`), with its
 * mail and files, so nothing of it is readable or receives mail afterwards; once per event
 * (`removeTenantOnce`). Inboxes go batch by batch, each with `inbox.deleted` (realtime closes
 * their sockets); files after each commit.
 */
export async function removeTenantInboxes(deps: InboxDeps, logger: Logger, input: TenantRemoval): Promise<void> {
  const { tenant } = input;
  await removeTenantOnce(deps.data, input, {
    removeAll: async () => (await removeInboxes(deps, logger, tenant)) + (await removeSnapshots(deps, logger, tenant)),
  });
}

function removeInboxes(deps: InboxDeps, logger: Logger, tenant: TenantRemoval["tenant"]): Promise<number> {
  const deletedAt = new Date(deps.now()).toISOString();
  return removeInBatches({
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
}

/** The tenant's mail snapshots (extensions section 12), batch by batch; their pictures after each commit. */
function removeSnapshots(deps: InboxDeps, logger: Logger, tenant: TenantRemoval["tenant"]): Promise<number> {
  return removeInBatches({
    size: REMOVAL_BATCH,
    logger,
    what: `snapshots of ${tenant.kind}`,
    batch: async (size) => {
      const removed = await deps.data.write((repos) => repos.snapshots.removeBatchOf(tenant.scope, size));
      await Promise.all(removed.map((id) => deps.storage.removeFolder(snapshotFolder(id))));
      return removed.length;
    },
  });
}
