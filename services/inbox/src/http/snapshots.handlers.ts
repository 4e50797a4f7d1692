import type { snapshotsRoutes } from "@burnbox/contracts";
import type { Handlers } from "@burnbox/service-kit/http";
import type { InboxDeps } from "../domain/deps";
import { compareEmailWithSnapshot } from "../domain/snapshots/compare-email-with-snapshot.use-case";
import { createSnapshot } from "../domain/snapshots/create-snapshot.use-case";
import { deleteSnapshot } from "../domain/snapshots/delete-snapshot.use-case";
import { getSnapshotImage } from "../domain/snapshots/get-snapshot-image.use-case";
import { getSnapshot } from "../domain/snapshots/get-snapshot.use-case";
import { listSnapshots } from "../domain/snapshots/list-snapshots.use-case";
import { updateSnapshot } from "../domain/snapshots/update-snapshot.use-case";

export const snapshotsHandlers = (deps: InboxDeps): Handlers<typeof snapshotsRoutes> => ({
  createSnapshot: ({ ctx, params, body }) => createSnapshot(deps, ctx, { ...params, body }),
  listSnapshots: ({ ctx, params, query }) => listSnapshots(deps, ctx, { ...params, query }),
  getSnapshot: ({ ctx, params }) => getSnapshot(deps, ctx, params),
  updateSnapshot: ({ ctx, params, body }) => updateSnapshot(deps, ctx, { ...params, body }),
  deleteSnapshot: ({ ctx, params }) => deleteSnapshot(deps, ctx, params),
  getSnapshotImage: async ({ ctx, params, query, http }) => {
    const png = await getSnapshotImage(deps, ctx, { ...params, ...query });
    http.res.status(200).type("image/png").set("Cache-Control", "private, max-age=3600").send(png);
  },
  compareEmailWithSnapshot: ({ ctx, params, body }) => compareEmailWithSnapshot(deps, ctx, { emailId: params.id, body }),
});
