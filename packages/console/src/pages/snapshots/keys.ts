/** Query keys of the snapshots area; every one starts with "snapshots". */
export const snapshotsKeys = {
  all: (teamId: string) => ["snapshots", teamId] as const,
  page: (teamId: string, page: number, perPage: number) => ["snapshots", teamId, "list", page, perPage] as const,
  one: (teamId: string, snapshotId: string) => ["snapshots", teamId, "one", snapshotId] as const,
  image: (url: string) => ["snapshots", "image", url] as const,
};
