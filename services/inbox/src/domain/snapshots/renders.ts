import { SNAPSHOT_SCHEMES, SNAPSHOT_WIDTHS, type SnapshotScheme, type SnapshotWidth } from "@burnbox/contracts";

/** The renders of every baseline and comparison (extensions section 12): widths 600 and 375, light and dark. */
export const SNAPSHOT_RENDERS: readonly { width: SnapshotWidth; scheme: SnapshotScheme }[] = SNAPSHOT_WIDTHS.flatMap((width) =>
  SNAPSHOT_SCHEMES.map((scheme) => ({ width, scheme })),
);

/** Storage keys of a snapshot's pictures. */
export const renderFile = (kind: "baseline" | "actual" | "diff", width: number, scheme: string) => `${kind}-${width}-${scheme}.png`;
