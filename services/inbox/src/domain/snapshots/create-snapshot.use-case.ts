import { randomUUID } from "node:crypto";
import type { CreateSnapshotBody, Snapshot } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import { baselineFolder } from "../../data/snapshot.repository";
import type { InboxDeps } from "../deps";
import { readMaskedEmail, renderAll, storeRenders, teamOfPath } from "./snapshot-source";

/**
 * Extensions section 12: a named baseline made from one of the team's emails. What it compares is
 * copied into the snapshot, masked (subject, From, text, HTML, links), and its renders are stored,
 * so the baseline outlives the email. The pictures are written before the row: a failed render
 * leaves no snapshot, and a failed insert (409) leaves only a folder that the next attempt replaces.
 */
export async function createSnapshot(
  deps: InboxDeps,
  ctx: RequestCtx,
  input: { orgId: string; teamId: string; body: CreateSnapshotBody },
): Promise<Snapshot> {
  const team = await teamOfPath(deps, ctx, input, "team.snapshots.manage");
  const masks = input.body.masks ?? [];
  const { mail } = await readMaskedEmail(deps, ctx, input.body.email_id, masks, team);
  const id = randomUUID();
  const imagesKey = baselineFolder(id, randomUUID());
  await storeRenders(deps, imagesKey, "baseline", await renderAll(deps.renderer, mail));
  return deps.data.write(async (repos, events) => {
    if (await repos.tenants.lockForCreate(team)) throw errors.notFound("team");
    const snapshot = await repos.snapshots.create(team, id, input.body.name, { emailId: input.body.email_id, masks, ...mail, imagesKey });
    events.audit({
      ctx,
      action: "snapshot.created",
      org_id: team.orgId,
      team_id: team.teamId,
      target: { type: "snapshot", id },
      metadata: { name: snapshot.name },
    });
    return snapshot.wire;
  });
}
