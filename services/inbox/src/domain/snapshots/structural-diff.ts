import { structuredPatch } from "diff";
import type { SnapshotComparison, SnapshotLink, TextHunk } from "@burnbox/contracts";

/** What of a mail is compared structurally, every part already masked. */
export interface MailParts {
  subject: string;
  from: string;
  text: string;
  links: readonly SnapshotLink[];
}

type Structural = Pick<SnapshotComparison, "subject" | "from" | "text" | "links">;

/** Lines end alike whatever the sender's line endings, and trailing white space does not count. */
const normalText = (text: string) =>
  text
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((l) => l.replace(/[ \t]+$/, ""))
    .join("\n")
    .replace(/\n+$/, "");

/** The text's changes as unified hunks (3 lines of context), none when equal. */
export function textHunks(baseline: string, actual: string): TextHunk[] {
  const patch = structuredPatch("baseline", "actual", `${normalText(baseline)}\n`, `${normalText(actual)}\n`, "", "", { context: 3 });
  return patch.hunks.map((h) => ({
    old_start: h.oldStart,
    old_lines: h.oldLines,
    new_start: h.newStart,
    new_lines: h.newLines,
    lines: h.lines.filter((l) => !l.startsWith("\\")),
  }));
}

/** The key by which a baseline's link and an actual one are paired: host and path (query values are masked anyway). */
export function linkPath(url: string): string {
  try {
    const u = new URL(url);
    return `${u.host}${u.pathname}`;
  } catch {
    return url.split(/[?#]/)[0] ?? url;
  }
}

/**
 * Links paired by host and path, in order (the n-th link of a path with the n-th of the same path):
 * a path only the actual has is `added`, only the baseline `removed`; a pair whose URL (its query
 * keys), anchor text or kind differ is `changed`, naming what changed.
 */
export function linkChanges(baseline: readonly SnapshotLink[], actual: readonly SnapshotLink[]): SnapshotComparison["links"] {
  const byPath = new Map<string, SnapshotLink[]>();
  for (const l of actual) {
    const key = linkPath(l.url);
    byPath.set(key, [...(byPath.get(key) ?? []), l]);
  }
  const removed: SnapshotLink[] = [];
  const changed: SnapshotComparison["links"]["changed"] = [];
  for (const b of baseline) {
    const path = linkPath(b.url);
    const pool = byPath.get(path);
    const a = pool?.shift();
    if (!a) {
      removed.push(b);
      continue;
    }
    const changes = (["url", "text", "kind"] as const).filter((k) => (k === "text" ? b.text.trim() !== a.text.trim() : b[k] !== a[k]));
    if (changes.length > 0) changed.push({ path, baseline: b, actual: a, changes });
  }
  const added = actual.filter((l) => (byPath.get(linkPath(l.url)) ?? []).includes(l));
  return { added, removed, changed };
}

/** Subject, From, text and links of a baseline against an actual mail, both masked. */
export function structuralDiff(baseline: MailParts, actual: MailParts): Structural {
  const diff = textHunks(baseline.text, actual.text);
  return {
    subject: { baseline: baseline.subject, actual: actual.subject, equal: baseline.subject === actual.subject },
    from: { baseline: baseline.from, actual: actual.from, equal: baseline.from === actual.from },
    text: { equal: diff.length === 0, diff },
    links: linkChanges(baseline.links, actual.links),
  };
}

/** Whether the structure matches: subject, From, text and links all equal. */
export function structureMatches(s: Structural): boolean {
  return s.subject.equal && s.from.equal && s.text.equal && s.links.added.length + s.links.removed.length + s.links.changed.length === 0;
}
