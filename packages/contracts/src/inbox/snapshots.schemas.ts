import { z } from "../zod";
import { PaginationQuery } from "../pagination";
import { Timestamp, Uuid } from "../shared/common.schemas";

/** The bounds of a snapshot (extensions section 12). */
export const SNAPSHOT_LIMITS = {
  nameMaxChars: 200,
  masksMax: 20,
  maskPatternMaxChars: 500,
  maskReplaceMaxChars: 100,
  /** The default `max_changed_ratio` of a comparison. */
  defaultMaxChangedRatio: 0.001,
} as const;

/** The widths and schemes every comparison renders (extensions section 12). */
export const SNAPSHOT_WIDTHS = [600, 375] as const;
export const SNAPSHOT_SCHEMES = ["light", "dark"] as const;
export type SnapshotWidth = (typeof SNAPSHOT_WIDTHS)[number];
export type SnapshotScheme = (typeof SNAPSHOT_SCHEMES)[number];

/** A snapshot's name: what a test suite calls its baseline (`signup-welcome`, `Password reset / de`). */
export const SnapshotName = z
  .string()
  .trim()
  .min(1)
  .max(SNAPSHOT_LIMITS.nameMaxChars)
  // eslint-disable-next-line no-control-regex -- control characters are exactly what a name may not hold
  .regex(/^[^\u0000-\u001f\u007f]+$/, "name: no control characters");

export const SnapshotMask = z
  .object({
    pattern: z
      .string()
      .min(1)
      .max(SNAPSHOT_LIMITS.maskPatternMaxChars)
      .openapi({ description: "An RE2 expression; every match is replaced, in the text and in the HTML's text nodes and attributes" }),
    replace: z
      .string()
      .max(SNAPSHOT_LIMITS.maskReplaceMaxChars)
      .optional()
      .openapi({ description: "What a match becomes (`$1` names a group); `[masked]` when absent" }),
  })
  .strict()
  .openapi("SnapshotMask");
export type SnapshotMask = z.infer<typeof SnapshotMask>;

export const SnapshotMasks = z.array(SnapshotMask).max(SNAPSHOT_LIMITS.masksMax);

export const CreateSnapshotBody = z
  .object({
    name: SnapshotName,
    email_id: Uuid.openapi({ description: "The email the baseline is made from" }),
    masks: SnapshotMasks.optional().openapi({
      description: "Masks beside the default ones (codes, query values, dates and times, UUIDs, tokens)",
    }),
  })
  .strict()
  .openapi("CreateSnapshotBody");
export type CreateSnapshotBody = z.infer<typeof CreateSnapshotBody>;

export const UpdateSnapshotBody = z
  .object({
    email_id: Uuid.openapi({ description: "The email the new baseline is made from" }),
    masks: SnapshotMasks.optional().openapi({ description: "Replaces the snapshot's masks; absent keeps them" }),
  })
  .strict()
  .openapi("UpdateSnapshotBody");
export type UpdateSnapshotBody = z.infer<typeof UpdateSnapshotBody>;

export const SnapshotParams = z.object({ orgId: Uuid, teamId: Uuid, snapshotId: Uuid });

export const ListSnapshotsQuery = PaginationQuery.extend({
  name: z.string().max(SNAPSHOT_LIMITS.nameMaxChars).optional().openapi({ description: "Only the snapshot of exactly this name" }),
});
export type ListSnapshotsQuery = z.infer<typeof ListSnapshotsQuery>;

export const SnapshotImageKind = z.enum(["baseline", "actual", "diff"]);
export type SnapshotImageKind = z.infer<typeof SnapshotImageKind>;

export const SnapshotImageParams = z.object({
  orgId: Uuid,
  teamId: Uuid,
  snapshotId: Uuid,
  kind: SnapshotImageKind,
  width: z.enum(["600", "375"]),
  scheme: z.enum(SNAPSHOT_SCHEMES),
});
export const SnapshotImageQuery = z.object({
  comparison: Uuid.optional().openapi({ description: "The comparison whose `actual` or `diff` picture is asked for (not for `baseline`)" }),
});

export const SnapshotLink = z
  .object({
    url: z.string().openapi({ description: "The link after masking (query values masked)" }),
    text: z.string(),
    kind: z.string(),
  })
  .openapi("SnapshotLink");
export type SnapshotLink = z.infer<typeof SnapshotLink>;

export const SnapshotBaselineImage = z
  .object({ width: z.number().int(), scheme: z.enum(SNAPSHOT_SCHEMES), url: z.string() })
  .openapi("SnapshotBaselineImage");

export const VisualComparison = z
  .object({
    width: z.number().int(),
    scheme: z.enum(SNAPSHOT_SCHEMES),
    changed_ratio: z.number().min(0).max(1).openapi({ description: "Changed pixels over all pixels of the larger picture" }),
    baseline_url: z.string(),
    actual_url: z.string(),
    diff_url: z.string().openapi({ description: "The actual picture with the changed pixels marked" }),
  })
  .openapi("VisualComparison");
export type VisualComparison = z.infer<typeof VisualComparison>;

export const TextHunk = z
  .object({
    old_start: z.number().int(),
    old_lines: z.number().int(),
    new_start: z.number().int(),
    new_lines: z.number().int(),
    lines: z.array(z.string()).openapi({ description: "Unified diff lines: ` ` kept, `-` baseline only, `+` actual only" }),
  })
  .openapi("TextHunk");
export type TextHunk = z.infer<typeof TextHunk>;

const Compared = (name: string) => z.object({ baseline: z.string(), actual: z.string(), equal: z.boolean() }).openapi(name);

export const ChangedLink = z
  .object({
    path: z.string().openapi({ description: "The link's host and path, by which links are paired" }),
    baseline: SnapshotLink,
    actual: SnapshotLink,
    changes: z.array(z.enum(["url", "text", "kind"])),
  })
  .openapi("ChangedLink");

export const SnapshotComparison = z
  .object({
    id: Uuid.openapi({ description: "The comparison; its pictures are served under the snapshot" }),
    snapshot_id: Uuid,
    snapshot: z.string().openapi({ description: "The snapshot's name" }),
    email_id: Uuid,
    match: z.boolean(),
    max_changed_ratio: z.number(),
    subject: Compared("ComparedSubject"),
    from: Compared("ComparedFrom"),
    text: z.object({ equal: z.boolean(), diff: z.array(TextHunk) }).openapi("ComparedText"),
    links: z
      .object({ added: z.array(SnapshotLink), removed: z.array(SnapshotLink), changed: z.array(ChangedLink) })
      .openapi("ComparedLinks"),
    visual: z.array(VisualComparison),
    created_at: Timestamp,
  })
  .openapi("SnapshotComparison");
export type SnapshotComparison = z.infer<typeof SnapshotComparison>;

export const Snapshot = z
  .object({
    id: Uuid,
    org_id: Uuid,
    team_id: Uuid,
    name: z.string(),
    email_id: Uuid.openapi({ description: "The email the baseline was made from (the baseline outlives it)" }),
    masks: z.array(SnapshotMask),
    subject: z.string().openapi({ description: "The baseline's subject after masking" }),
    from: z.string().openapi({ description: "The baseline's From after masking" }),
    text: z.string().openapi({ description: "The baseline's text after masking" }),
    links: z.array(SnapshotLink),
    baseline_images: z.array(SnapshotBaselineImage),
    latest_comparison: SnapshotComparison.nullable().openapi({ description: "The newest comparison against this baseline, if any" }),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .openapi("Snapshot");
export type Snapshot = z.infer<typeof Snapshot>;

export const CompareEmailBody = z
  .object({
    snapshot: SnapshotName.openapi({ description: "The name of a snapshot of the email's team" }),
    max_changed_ratio: z
      .number()
      .min(0)
      .max(1)
      .optional()
      .openapi({ description: "The changed share of pixels still a match; 0.001 when absent" }),
  })
  .strict()
  .openapi("CompareEmailBody");
export type CompareEmailBody = z.infer<typeof CompareEmailBody>;
