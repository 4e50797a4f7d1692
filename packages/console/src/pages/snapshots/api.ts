// The snapshots area's server state (extensions section 12): a team's mail baselines and their pictures.
import type { ApiAnswer } from "../../api/query";
import { apiMutationWith, apiQueryWith } from "../../api/query";
import type { components } from "@burnbox/sdk";
import { parseSnapshotImageUrl } from "./image-url";
import { snapshotsKeys as keys } from "./keys";

export type SnapshotComparison = components["schemas"]["SnapshotComparison"];
/** The generated type reads `latest_comparison` as unknown (a union with null in the contract): the contract's own shape. */
export type Snapshot = Omit<components["schemas"]["Snapshot"], "latest_comparison"> & { latest_comparison: SnapshotComparison | null };
type SnapshotPage = Omit<components["schemas"]["SnapshotPage"], "data"> & { data: Snapshot[] };
type TeamPath = { orgId: string; teamId: string };

/** `GET /orgs/{orgId}/teams/{teamId}/snapshots` */
export const useSnapshots = apiQueryWith(
  (a: { path: TeamPath; page: number; perPage: number }) => keys.page(a.path.teamId, a.page, a.perPage),
  (bb, signal, { path, page, perPage }) =>
    bb.api.GET("/orgs/{orgId}/teams/{teamId}/snapshots", { params: { path, query: { page, per_page: perPage } }, signal }) as Promise<
      ApiAnswer<SnapshotPage>
    >,
);

/** `GET /orgs/{orgId}/teams/{teamId}/snapshots/{snapshotId}` (with its latest comparison) */
export const useSnapshot = apiQueryWith(
  (a: { path: TeamPath; snapshotId: string }) => keys.one(a.path.teamId, a.snapshotId),
  (bb, signal, { path, snapshotId }) =>
    bb.api.GET("/orgs/{orgId}/teams/{teamId}/snapshots/{snapshotId}", { params: { path: { ...path, snapshotId } }, signal }) as Promise<
      ApiAnswer<Snapshot>
    >,
);

/** `PUT /orgs/{orgId}/teams/{teamId}/snapshots/{snapshotId}`: a new baseline from another email. */
export const useRebaseline = apiMutationWith(
  (bb, body: components["schemas"]["UpdateSnapshotBody"], a: { path: TeamPath; snapshotId: string }) =>
    bb.api.PUT("/orgs/{orgId}/teams/{teamId}/snapshots/{snapshotId}", { params: { path: { ...a.path, snapshotId: a.snapshotId } }, body }),
);

/** `DELETE /orgs/{orgId}/teams/{teamId}/snapshots/{snapshotId}` */
export const useDeleteSnapshot = apiMutationWith((bb, snapshotId: string, a: { path: TeamPath }) =>
  bb.api.DELETE("/orgs/{orgId}/teams/{teamId}/snapshots/{snapshotId}", { params: { path: { ...a.path, snapshotId } } }),
);

/** A snapshot's picture (baseline, actual or diff) as a PNG Blob, fetched with the session's token from the address the API gave. */
export const useSnapshotImage = apiQueryWith(
  (a: { url: string }) => keys.image(a.url),
  (bb, signal, { url }) => {
    const ref = parseSnapshotImageUrl(url);
    if (!ref) return Promise.reject(new Error(`not a snapshot picture: ${url}`));
    const { comparison, ...path } = ref;
    return bb.api.GET("/orgs/{orgId}/teams/{teamId}/snapshots/{snapshotId}/images/{kind}/{width}/{scheme}", {
      params: { path, query: comparison ? { comparison } : {} },
      parseAs: "blob",
      signal,
    });
  },
);
