import type { Command } from "commander";
import type { CommandContext } from "../context.js";
import { collect } from "./options.js";
import { body, printQueued } from "./outbound-output.js";

/** `burnbox send <inboxId>`: a new message from the inbox (extensions section 10). */
export function addSendCommand(program: Command, ctx: CommandContext): void {
  program
    .command("send")
    .description("send a new message from an inbox's address (to BurnBox inboxes, or the org's allowed recipients)")
    .argument("<inboxId>", "the inbox to send from")
    .requiredOption("--to <address>", "a recipient; repeatable", collect)
    .option("--cc <address>", "a Cc recipient; repeatable", collect)
    .requiredOption("--subject <subject>", "the subject")
    .option("--text <text>", "the text part")
    .option("--html <html>", "the HTML part")
    .option("--json", "print the answer as JSON")
    .action(async (inboxId: string, o: { to: string[]; cc?: string[]; subject: string; text?: string; html?: string; json?: boolean }) => {
      const bb = await ctx.client();
      const queued = await bb.sendEmail(inboxId, { to: o.to, ...(o.cc ? { cc: o.cc } : {}), subject: o.subject, ...body(o) });
      printQueued(ctx, queued, o.json);
    });
}
