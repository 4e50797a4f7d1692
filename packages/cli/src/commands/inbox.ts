import type { Command } from "commander";
import { readConfig } from "../config.js";
import type { CommandContext } from "../context.js";
import { UsageError } from "../usage-error.js";

/** `burnbox inbox create`: a new inbox on the team's domain assignment; prints its id and address. */
export function addInboxCommand(program: Command, ctx: CommandContext): void {
  const { term } = ctx;
  const inbox = program.command("inbox").description("manage inboxes");
  inbox
    .command("create")
    .description("create an inbox; prints its id and address")
    .option("--domain-assignment <id>", "the team's domain assignment to create it on (default: the one `burnbox init` stored)")
    .option("--alias <alias>", "the local part (random when absent)")
    .option("--ttl <duration>", "how long it lives, e.g. 1h, 7d")
    .option("--private", "a private inbox")
    .option("--json", "print the inbox as JSON")
    .action(async (o: { domainAssignment?: string; alias?: string; ttl?: string; private?: boolean; json?: boolean }) => {
      const assignment = o.domainAssignment ?? readConfig(ctx.file()).domain_assignment_id;
      if (!assignment) throw new UsageError("no domain assignment: pass --domain-assignment <id>, or run `burnbox init` once");
      const bb = await ctx.client();
      const created = await bb.createInbox({
        domain_assignment_id: assignment,
        ...(o.alias ? { alias: o.alias } : {}),
        ...(o.ttl ? { ttl: o.ttl } : {}),
        ...(o.private ? { private: true } : {}),
      });
      if (o.json) term.json(created);
      else term.row(created.id, created.full_address, created.expires_at);
    });
}
