import { SNAPSHOT_SCHEMES, SNAPSHOT_WIDTHS, type SnapshotScheme, type SnapshotWidth } from "@burnbox/contracts";

/** The renders of every baseline and comparison (extensions section 12): widths 600 and 375, light and dark. */
export const SNAPSHOT_RENDERS: readonly { width: SnapshotWidth; scheme: SnapshotScheme }[] = SNAPSHOT_WIDTHS.flatMap((width) =>
  SNAPSHOT_SCHEMES.map((scheme) => ({ width, scheme })),
);

/** What is rendered: the masked HTML part, else the masked text set in a plain page (the renderer decides how). */
export interface RenderInput {
  html: string | null;
  text: string;
  width: SnapshotWidth;
  scheme: SnapshotScheme;
}

/**
 * The port to the renderer service (extensions section 12): a PNG of a mail at one width and
 * scheme, images blocked (a snapshot compares what the sender controls, never a remote image).
 * The adapter talks to the renderer over NATS; nothing in this service holds a browser.
 */
export interface MailRenderer {
  render(input: RenderInput): Promise<Buffer>;
}

/** Storage keys of a snapshot's pictures. */
export const renderFile = (kind: "baseline" | "actual" | "diff", width: number, scheme: string) => `${kind}-${width}-${scheme}.png`;
