import { InvalidArgumentError, Option, type Command } from "commander";
import { describeComparison, type MailSnapshot, type SnapshotMask } from "@burnbox/sdk";
import { readConfig } from "../config.js";
import type { CommandContext } from "../context.js";
import { UsageError } from "../usage-error.js";
import { positiveInt } from "./options.js";

/** Thrown when an email does not match its snapshot: the program exits with EXIT.differs. */
export class SnapshotDiffers extends Error {}

/** `--mask <pattern>` or `--mask '<pattern>=><replacement>'` (split at the last `=>`); repeatable. */
export const collectMask = (v: string, prev: SnapshotMask[] = []): SnapshotMask[] => {
  const at = v.lastIndexOf("=>");
  const mask: SnapshotMask = at === -1 ? { pattern: v } : { pattern: v.slice(0, at), replace: v.slice(at + 2) };
  if (mask.pattern === "") throw new InvalidArgumentError("a mask needs a pattern (RE2), optionally followed by =>replacement");
  return [...prev, mask];
};

const ratio = (v: string): number => {
  const n = Number(v);
  if (v.trim() === "" || !Number.isFinite(n) || n < 0 || n > 1) throw new InvalidArgumentError("a share of pixels from 0 to 1, e.g. 0.001");
  return n;
};

const snapshotRow = (s: MailSnapshot): Array<string | number> => {
  const latest = s.latest_comparison;
  return [s.id, s.name, s.email_id, s.updated_at, latest ? (latest.match ? "match" : "differs") : "not compared"];
};

/**
 * `burnbox snapshot save|compare|ls` (extensions section 12): an email as its team's named
 * baseline, an email against one, and the team's baselines with their latest comparison.
 * `compare` exits 0 on a match and 3 (EXIT.differs) with the readable diff otherwise.
 */
export function addSnapshotCommand(program: Command, ctx: CommandContext): void {
  const { term } = ctx;
  const snapshot = program.command("snapshot").description("mail snapshots: keep an email as a baseline, compare later mail with it");

  snapshot
    .command("save")
    .description("save an email as its team's baseline <name>: creates the snapshot, or re-baselines the one of that name")
    .argument("<emailId>", "the email to keep")
    .argument("<name>", "the snapshot's name (unique per team)")
    .option(
      "--mask <pattern[=>replacement]>",
      "an RE2 pattern masked besides the defaults (codes, link values, dates, tokens); repeatable",
      collectMask,
    )
    .option("--json", "print the snapshot as JSON")
    .action(async (emailId: string, name: string, o: { mask?: SnapshotMask[]; json?: boolean }) => {
      const bb = await ctx.client();
      const { snapshot: saved, created } = await bb.saveSnapshot(emailId, name, o.mask ? { masks: o.mask } : {});
      if (o.json) return term.json(saved);
      term.row(saved.id, saved.name, created ? "created" : "re-baselined");
    });

  snapshot
    .command("compare")
    .description("compare an email with its team's snapshot <name>; exits 0 on a match, 3 with the diff otherwise")
    .argument("<emailId>", "the email to compare")
    .argument("<name>", "the snapshot")
    .option("--max-changed-ratio <r>", "the share of pixels a picture may change and still match (default 0.001)", ratio)
    .option("--json", "print the comparison as JSON")
    .action(async (emailId: string, name: string, o: { maxChangedRatio?: number; json?: boolean }) => {
      const bb = await ctx.client();
      const c = await bb.compareWithSnapshot(emailId, name, o.maxChangedRatio !== undefined ? { maxChangedRatio: o.maxChangedRatio } : {});
      if (o.json) term.json(c);
      else {
        term.row(c.id, c.match ? "match" : "differs", c.snapshot);
        for (const v of c.visual) term.row(`${v.width}px`, v.scheme, `${(v.changed_ratio * 100).toFixed(2)}% changed`);
        if (!c.match) term.out(describeComparison(c, bb.baseUrl));
      }
      if (!c.match) throw new SnapshotDiffers(`email ${emailId} does not match snapshot "${name}"`);
    });

  snapshot
    .command("ls")
    .description("list the team's snapshots (id, name, email, updated, latest comparison)")
    .addOption(new Option("--org <orgId>", "the organization (default: the one `burnbox init` stored)"))
    .addOption(new Option("--team <teamId>", "the team (default: the one `burnbox init` stored)"))
    .option("--name <name>", "only the snapshot of this name")
    .option("--page <n>", "page number", positiveInt)
    .option("--per-page <n>", "items per page", positiveInt)
    .option("--json", "print the page as JSON")
    .action(async (o: { org?: string; team?: string; name?: string; page?: number; perPage?: number; json?: boolean }) => {
      const stored = readConfig(ctx.file());
      const orgId = o.org ?? stored.org_id;
      const teamId = o.team ?? stored.team_id;
      if (!orgId || !teamId) throw new UsageError("no team: pass --org <id> --team <id>, or run `burnbox init` once");
      const bb = await ctx.client();
      const page = await bb.listSnapshots(orgId, teamId, {
        ...(o.name ? { name: o.name } : {}),
        ...(o.page ? { page: o.page } : {}),
        ...(o.perPage ? { per_page: o.perPage } : {}),
      });
      if (o.json) return term.json(page);
      for (const s of page.data) term.row(...snapshotRow(s));
    });
}
