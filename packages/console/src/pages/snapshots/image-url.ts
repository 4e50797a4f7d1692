/** A snapshot picture's address as the API gives it (`baseline_url`, `diff_url`, …), taken apart for the typed client. */
export interface SnapshotImageRef {
  orgId: string;
  teamId: string;
  snapshotId: string;
  kind: "baseline" | "actual" | "diff";
  width: "600" | "375";
  scheme: "light" | "dark";
  comparison?: string;
}

const PATTERN =
  /\/orgs\/([0-9a-f-]{36})\/teams\/([0-9a-f-]{36})\/snapshots\/([0-9a-f-]{36})\/images\/(baseline|actual|diff)\/(600|375)\/(light|dark)(?:\?(.*))?$/i;

/** The parts of `…/snapshots/:sid/images/:kind/:width/:scheme[?comparison=]`, or null for any other address. */
export function parseSnapshotImageUrl(url: string): SnapshotImageRef | null {
  const m = PATTERN.exec(url);
  if (!m) return null;
  const comparison = new URLSearchParams(m[7] ?? "").get("comparison") ?? undefined;
  return {
    orgId: m[1]!,
    teamId: m[2]!,
    snapshotId: m[3]!,
    kind: m[4] as SnapshotImageRef["kind"],
    width: m[5] as SnapshotImageRef["width"],
    scheme: m[6] as SnapshotImageRef["scheme"],
    ...(comparison ? { comparison } : {}),
  };
}
