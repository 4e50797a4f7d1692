import { randomUUID } from "node:crypto";
import type { Snapshot, UpdateSnapshotBody } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import { baselineFolder, comparisonsFolder } from "../../data/snapshot.repository";
import type { InboxDeps } from "../deps";
import { readMaskedEmail, renderAll, storeRenders, teamOfPath } from "./snapshot-source";

/**
 * Re-baselines a snapshot from another email of the team (and, when given, other masks): the new
 * baseline's renders go to a new folder, the row is switched to it, and the old renders and the
 * comparisons against the old baseline are removed after the commit.
 */
export async function updateSnapshot(
  deps: InboxDeps,
  ctx: RequestCtx,
  input: { orgId: string; teamId: string; snapshotId: string; body: UpdateSnapshotBody },
): Promise<Snapshot> {
  const team = await teamOfPath(deps, ctx, input, "team.snapshots.manage");
  const current = await deps.data.repos.snapshots.get(team, input.snapshotId);
  if (!current) throw errors.notFound("snapshot");
  const masks = input.body.masks ?? current.masks;
  const { mail } = await readMaskedEmail(deps, ctx, input.body.email_id, masks, team);
  const imagesKey = baselineFolder(current.id, randomUUID());
  await storeRenders(deps, imagesKey, "baseline", await renderAll(deps.renderer, mail));
  const done = await deps.data.write(async (repos, events) => {
    const changed = await repos.snapshots.rebaseline(
      team,
      current.id,
      { emailId: input.body.email_id, masks, ...mail, imagesKey },
      new Date(deps.now()),
    );
    if (!changed) throw errors.notFound("snapshot");
    events.audit({
      ctx,
      action: "snapshot.updated",
      org_id: team.orgId,
      team_id: team.teamId,
      target: { type: "snapshot", id: current.id },
      metadata: { name: current.name },
    });
    return changed;
  });
  // after the commit: the old baseline's pictures and the comparisons' (a failure leaves orphans, never a broken snapshot)
  await Promise.all([deps.storage.removeFolder(done.oldImagesKey), deps.storage.removeFolder(comparisonsFolder(current.id))]);
  return done.snapshot.wire;
}
