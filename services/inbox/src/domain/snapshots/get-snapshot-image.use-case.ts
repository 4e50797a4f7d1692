import type { SnapshotImageKind } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import type { InboxDeps } from "../deps";
import { renderFile } from "./renders";
import { teamOfPath } from "./snapshot-source";

/**
 * One PNG of a snapshot: its baseline's render, or a comparison's actual render or diff (the
 * comparison named by `comparison`, one of this snapshot's). 404 for anything not the team's.
 */
export async function getSnapshotImage(
  deps: InboxDeps,
  ctx: RequestCtx,
  input: { orgId: string; teamId: string; snapshotId: string; kind: SnapshotImageKind; width: string; scheme: string; comparison?: string },
): Promise<Buffer> {
  const team = await teamOfPath(deps, ctx, input, "team.emails.view");
  let folder: string | null;
  if (input.kind === "baseline") {
    folder = (await deps.data.repos.snapshots.get(team, input.snapshotId))?.imagesKey ?? null;
  } else {
    if (!input.comparison)
      throw errors.validation("comparison: required for the actual and diff pictures", [{ path: "comparison", message: "required" }]);
    folder = await deps.data.repos.snapshots.comparisonImages(team, input.snapshotId, input.comparison);
  }
  if (!folder) throw errors.notFound("snapshot image");
  const key = `${folder}/${renderFile(input.kind, Number(input.width), input.scheme)}`;
  if (!(await deps.storage.has(key))) throw errors.notFound("snapshot image");
  return deps.storage.get(key);
}
