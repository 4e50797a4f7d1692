import { Option, type Command } from "commander";
import type { LinkKind, WaitOptions } from "@burnbox/sdk";
import type { CommandContext } from "../context.js";
import { UsageError } from "../usage-error.js";
import { collect, emailRow, positiveInt } from "./options.js";

const LINK_KINDS: readonly LinkKind[] = ["verify", "reset", "magic_link", "unsubscribe", "other"];

interface WaitFlags {
  from?: string;
  to?: string;
  subject?: string;
  body?: string;
  subjectRe?: string;
  bodyRe?: string;
  header?: string[];
  since?: string;
  unread?: boolean;
  count?: number;
  timeout: string;
  code?: boolean;
  link?: string | boolean;
  json?: boolean;
}

/**
 * `burnbox wait <inboxId>`: mail that matches, or its code or link; a timeout is exit 2 (the
 * program's error handling prints it, with the partial answer under --json).
 */
export function addWaitCommand(program: Command, ctx: CommandContext): void {
  const { term } = ctx;
  program
    .command("wait")
    .description("wait for mail in an inbox that matches; exit 0 when it came, 2 when the timeout passed")
    .argument("<inboxId>", "the inbox")
    .option("--from <text>", "From address or name contains")
    .option("--to <text>", "a To or Cc address or name contains")
    .option("--subject <text>", "the subject contains")
    .option("--body <text>", "the body contains")
    .option("--subject-re <re2>", "the subject matches this RE2 pattern")
    .option("--body-re <re2>", "the body matches this RE2 pattern")
    .option("--header <line>", "'Name: value', exact; repeatable, all must hold", collect)
    .option("--since <timeOrEmailId>", "only mail received after this ISO time or email")
    .option("--unread", "only unread mail")
    .option("--count <n>", "how many emails to wait for (1 to 100)", positiveInt)
    .option("--timeout <duration>", "at most this long: 0, 500ms, 10s, 2m (up to 120s)", "30s")
    .addOption(new Option("--code", "print the first one-time code of the mail").conflicts("link"))
    .addOption(new Option("--link [kind]", `print a link of the mail (kind: ${LINK_KINDS.join(", ")}; default any but unsubscribe)`))
    .option("--json", "print the wait's answer as JSON")
    .action(async (inboxId: string, o: WaitFlags) => {
      if (typeof o.link === "string" && !LINK_KINDS.includes(o.link as LinkKind)) {
        throw new UsageError(`--link kind must be one of ${LINK_KINDS.join(", ")}`);
      }
      const bb = await ctx.client();
      const options: WaitOptions = {
        ...(o.from ? { from: o.from } : {}),
        ...(o.to ? { to: o.to } : {}),
        ...(o.subject ? { subject: o.subject } : {}),
        ...(o.body ? { body: o.body } : {}),
        ...(o.subjectRe ? { subjectRe: o.subjectRe } : {}),
        ...(o.bodyRe ? { bodyRe: o.bodyRe } : {}),
        ...(o.header ? { headers: o.header } : {}),
        ...(o.since ? { since: o.since } : {}),
        ...(o.unread ? { unread: true } : {}),
        ...(o.count ? { count: o.count } : {}),
        timeout: o.timeout,
      };
      if (o.code) return term.row(await bb.waitForCode(inboxId, options));
      if (o.link !== undefined) {
        return term.row(await bb.waitForLink(inboxId, { ...options, ...(typeof o.link === "string" ? { kind: o.link as LinkKind } : {}) }));
      }
      const result = await bb.waitForEmail(inboxId, options);
      if (o.json) return term.json(result);
      for (const e of result.data) emailRow(term, e);
    });
}
