// `expect(email).toMatchMailSnapshot(name)` for jest and Playwright (extensions section 12): the
// email against its team's baseline `name`, made from it when there is none yet (as jest's own
// snapshots are written on their first run), re-baselined with the update flag.
import type { BurnBox } from "./client.js";
import type { SnapshotComparison, SnapshotMask } from "./extensions.js";

/** What the matcher takes: an email (anything with its `id`) or an email id. */
export type MailLike = string | { id: string };

export interface MailSnapshotOptions {
  /** Masks beside the default ones, used when the baseline is made or re-baselined. */
  masks?: SnapshotMask[];
  /** The changed share of pixels still a match (0.001 when absent). */
  maxChangedRatio?: number;
}

/** The part of jest's or Playwright's matcher context that the matcher reads. */
interface MatcherContext {
  isNot?: boolean;
  snapshotState?: { _updateSnapshot?: string };
}

export interface MatcherResult {
  pass: boolean;
  message: () => string;
}

/**
 * Whether baselines are to be rewritten: `BURNBOX_UPDATE_SNAPSHOTS=1` (or `true`), or jest run
 * with `-u` / `--updateSnapshot` (its matcher context says `_updateSnapshot: "all"`).
 */
const processEnv = (): Record<string, string | undefined> =>
  (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env ?? {};

export function updatingSnapshots(context?: MatcherContext, env: Record<string, string | undefined> = processEnv()): boolean {
  const flag = (env.BURNBOX_UPDATE_SNAPSHOTS ?? "").toLowerCase();
  return flag === "1" || flag === "true" || context?.snapshotState?._updateSnapshot === "all";
}

const indent = (lines: string[]) => lines.map((l) => `    ${l}`);

/** A comparison as a person reads it: only what differs, with the pictures' URLs (absolute when `baseUrl`, the client's, is given). */
export function describeComparison(c: SnapshotComparison, baseUrl = ""): string {
  const out: string[] = [];
  if (!c.subject.equal) out.push("subject:", ...indent([`- ${c.subject.baseline}`, `+ ${c.subject.actual}`]));
  if (!c.from.equal) out.push("from:", ...indent([`- ${c.from.baseline}`, `+ ${c.from.actual}`]));
  if (!c.text.equal) {
    out.push("text:");
    for (const h of c.text.diff) out.push(...indent([`@@ -${h.old_start},${h.old_lines} +${h.new_start},${h.new_lines} @@`, ...h.lines]));
  }
  const { added, removed, changed } = c.links;
  if (added.length + removed.length + changed.length > 0) {
    out.push("links:");
    for (const l of removed) out.push(...indent([`- ${l.url}${l.text ? ` (${l.text})` : ""}`]));
    for (const l of added) out.push(...indent([`+ ${l.url}${l.text ? ` (${l.text})` : ""}`]));
    for (const l of changed) {
      out.push(
        ...indent([
          `~ ${l.path}: ${l.changes.map((k) => `${k} ${JSON.stringify(l.baseline[k])} -> ${JSON.stringify(l.actual[k])}`).join(", ")}`,
        ]),
      );
    }
  }
  // the pictures' URLs are absolute paths (`/api/v1/orgs/…`): resolved against the client's origin, not appended to its `/api/v1`
  const at = (url: string) => (baseUrl ? new URL(url, baseUrl).toString() : url);
  const over = c.visual.filter((v) => v.changed_ratio > c.max_changed_ratio);
  if (over.length > 0) {
    out.push(`pictures (more than ${(c.max_changed_ratio * 100).toFixed(2)}% of pixels changed):`);
    for (const v of over)
      out.push(...indent([`${v.width}px ${v.scheme}: ${(v.changed_ratio * 100).toFixed(2)}% changed, diff ${at(v.diff_url)}`]));
  }
  return out.join("\n");
}

/**
 * The matcher against one client. The email matches when its team's snapshot `name` says so; a
 * missing snapshot is made from the email (the test passes), as is the existing one with the
 * update flag (see `updatingSnapshots`).
 */
export async function matchMailSnapshot(
  client: BurnBox,
  context: MatcherContext,
  received: MailLike,
  name: string,
  options: MailSnapshotOptions = {},
): Promise<MatcherResult> {
  const emailId = typeof received === "string" ? received : received.id;
  const { orgId, teamId } = await client.teamOfEmail(emailId);
  const existing = await client.findSnapshot(orgId, teamId, name);
  const masks = options.masks ? { masks: options.masks } : {};
  if (!existing) {
    await client.createSnapshot(orgId, teamId, { name, email_id: emailId, ...masks });
    return { pass: !context.isNot, message: () => `mail snapshot "${name}" was written from email ${emailId}` };
  }
  if (updatingSnapshots(context)) {
    await client.updateSnapshot(orgId, teamId, existing.id, { email_id: emailId, ...masks });
    return { pass: !context.isNot, message: () => `mail snapshot "${name}" was re-baselined from email ${emailId}` };
  }
  const comparison = await client.compareWithSnapshot(
    emailId,
    name,
    options.maxChangedRatio !== undefined ? { maxChangedRatio: options.maxChangedRatio } : {},
  );
  return {
    pass: comparison.match,
    message: () =>
      comparison.match
        ? `expected email ${emailId} not to match mail snapshot "${name}"`
        : `email ${emailId} does not match mail snapshot "${name}" (re-baseline with BURNBOX_UPDATE_SNAPSHOTS=1):\n${describeComparison(comparison, client.baseUrl)}`,
  };
}

/**
 * The matchers for `expect.extend` (jest, or Playwright's `expect`):
 *
 *     expect.extend(mailSnapshotMatchers(client));
 *     await expect(email).toMatchMailSnapshot("signup-welcome");
 */
export function mailSnapshotMatchers(client: BurnBox) {
  return {
    async toMatchMailSnapshot(
      this: MatcherContext,
      received: MailLike,
      name: string,
      options?: MailSnapshotOptions,
    ): Promise<MatcherResult> {
      return matchMailSnapshot(client, this, received, name, options);
    },
  };
}

/** The matcher's type, for `declare module` augmentations of jest's or Playwright's `Matchers`. */
export interface MailSnapshotMatchers<R> {
  toMatchMailSnapshot(name: string, options?: MailSnapshotOptions): Promise<R>;
}
