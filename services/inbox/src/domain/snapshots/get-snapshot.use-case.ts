import type { Snapshot } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import type { InboxDeps } from "../deps";
import { teamOfPath } from "./snapshot-source";

/** One snapshot of the team with its latest comparison; another team's answers like an unknown one (404). */
export async function getSnapshot(
  deps: InboxDeps,
  ctx: RequestCtx,
  input: { orgId: string; teamId: string; snapshotId: string },
): Promise<Snapshot> {
  const team = await teamOfPath(deps, ctx, input, "team.emails.view");
  const snapshot = await deps.data.repos.snapshots.get(team, input.snapshotId);
  if (!snapshot) throw errors.notFound("snapshot");
  return snapshot.wire;
}
