import { randomUUID } from "node:crypto";
import { SNAPSHOT_LIMITS, type CompareEmailBody, type SnapshotComparison } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import { comparisonsFolder, snapshotImageUrl } from "../../data/snapshot.repository";
import type { InboxDeps } from "../deps";
import { authorizeInbox } from "../inboxes/inbox-access";
import { renderFile } from "./renders";
import { readMaskedEmail, renderAll, storeRenders } from "./snapshot-source";
import { structuralDiff, structureMatches } from "./structural-diff";
import { visualDiff } from "./visual-diff";

/**
 * Extensions section 12: an email against a snapshot of its own team, both masked with the
 * snapshot's masks: subject, From, text and links structurally, then the renders at every width
 * and scheme pixel by pixel against the baseline's. `match` when the structure is equal and every
 * changed ratio is at most `max_changed_ratio`. The comparison is kept (the newest 20 per
 * snapshot) so that its pictures can be served and the console can show the latest.
 */
export async function compareEmailWithSnapshot(
  deps: InboxDeps,
  ctx: RequestCtx,
  input: { emailId: string; body: CompareEmailBody },
): Promise<SnapshotComparison> {
  const located = await deps.data.repos.emails.locate(input.emailId);
  if (!located) throw errors.notFound("email");
  // the email's team names the snapshot; comparing takes the email's read permission
  const team = await authorizeInbox(deps, ctx, located.inbox, "team.emails.view", "email");
  const snapshot = await deps.data.repos.snapshots.byName(team, input.body.snapshot);
  if (!snapshot) throw errors.notFound("snapshot");
  const { mail } = await readMaskedEmail(deps, ctx, input.emailId, snapshot.masks, team);
  const threshold = input.body.max_changed_ratio ?? SNAPSHOT_LIMITS.defaultMaxChangedRatio;
  const structure = structuralDiff(snapshot, mail);
  const id = randomUUID();
  const folder = `${comparisonsFolder(snapshot.id)}/${id}`;
  const actual = await renderAll(deps.renderer, mail);
  const visuals = await Promise.all(
    actual.map(async (a) => {
      const baseline = await deps.storage.get(`${snapshot.imagesKey}/${renderFile("baseline", a.width, a.scheme)}`);
      const { changedRatio, diffPng } = visualDiff(baseline, a.png);
      return { ...a, changedRatio, diffPng };
    }),
  );
  await storeRenders(deps, folder, "actual", actual);
  await storeRenders(
    deps,
    folder,
    "diff",
    visuals.map((v) => ({ width: v.width, scheme: v.scheme, png: v.diffPng })),
  );
  const result: Omit<SnapshotComparison, "id" | "created_at"> = {
    snapshot_id: snapshot.id,
    snapshot: snapshot.name,
    email_id: input.emailId,
    match: structureMatches(structure) && visuals.every((v) => v.changedRatio <= threshold),
    max_changed_ratio: threshold,
    ...structure,
    visual: visuals.map((v) => ({
      width: v.width,
      scheme: v.scheme,
      changed_ratio: v.changedRatio,
      baseline_url: snapshotImageUrl(team, snapshot.id, "baseline", v.width, v.scheme),
      actual_url: snapshotImageUrl(team, snapshot.id, "actual", v.width, v.scheme, id),
      diff_url: snapshotImageUrl(team, snapshot.id, "diff", v.width, v.scheme, id),
    })),
  };
  const { comparison, dropped } = await deps.data.write((repos) =>
    repos.snapshots.addComparison(team, snapshot.id, { id, emailId: input.emailId, result, imagesKey: folder, at: new Date(deps.now()) }),
  );
  await Promise.all(dropped.map((key) => deps.storage.removeFolder(key)));
  return comparison;
}
