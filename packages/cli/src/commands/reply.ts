import type { Command } from "commander";
import type { CommandContext } from "../context.js";
import { body, printQueued } from "./outbound-output.js";

/** `burnbox reply <emailId>`: a reply from the email's inbox. */
export function addReplyCommand(program: Command, ctx: CommandContext): void {
  program
    .command("reply")
    .description("reply to an email from its inbox (to its Reply-To or From; --all for the other recipients too)")
    .argument("<emailId>", "the email to reply to")
    .option("--text <text>", "the text part")
    .option("--html <html>", "the HTML part")
    .option("--all", "reply to all: the other To and Cc recipients too")
    .option("--json", "print the answer as JSON")
    .action(async (emailId: string, o: { text?: string; html?: string; all?: boolean; json?: boolean }) => {
      const bb = await ctx.client();
      printQueued(ctx, await bb.replyToEmail(emailId, { ...body(o), reply_all: o.all === true }), o.json);
    });
}
