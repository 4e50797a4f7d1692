import type { ListSnapshotsQuery, Page, Snapshot } from "@burnbox/contracts";
import { paginate } from "@burnbox/service-kit/data";
import type { RequestCtx } from "@burnbox/service-kit/http";
import type { InboxDeps } from "../deps";
import { teamOfPath } from "./snapshot-source";

/** A team's snapshots by name, each with its latest comparison (extensions section 12). */
export async function listSnapshots(
  deps: InboxDeps,
  ctx: RequestCtx,
  input: { orgId: string; teamId: string; query: ListSnapshotsQuery },
): Promise<Page<Snapshot>> {
  const team = await teamOfPath(deps, ctx, input, "team.emails.view");
  const filter = input.query.name !== undefined ? { name: input.query.name } : {};
  return paginate(input.query, {
    rows: (window) => deps.data.repos.snapshots.list(team, filter, window),
    count: () => deps.data.repos.snapshots.count(team, filter),
    map: (rows) => rows,
  });
}
