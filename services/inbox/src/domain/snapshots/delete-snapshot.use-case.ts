import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import { snapshotFolder } from "../../data/snapshot.repository";
import type { InboxDeps } from "../deps";
import { teamOfPath } from "./snapshot-source";

/** Deletes a snapshot of the team with its comparisons; its pictures go after the commit. */
export async function deleteSnapshot(
  deps: InboxDeps,
  ctx: RequestCtx,
  input: { orgId: string; teamId: string; snapshotId: string },
): Promise<void> {
  const team = await teamOfPath(deps, ctx, input, "team.snapshots.manage");
  await deps.data.write(async (repos, events) => {
    const removed = await repos.snapshots.remove(team, input.snapshotId);
    if (!removed) throw errors.notFound("snapshot");
    events.audit({
      ctx,
      action: "snapshot.deleted",
      org_id: team.orgId,
      team_id: team.teamId,
      target: { type: "snapshot", id: input.snapshotId },
      metadata: { name: removed.name },
    });
  });
  await deps.storage.removeFolder(snapshotFolder(input.snapshotId));
}
