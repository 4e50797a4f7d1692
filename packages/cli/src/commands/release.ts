import type { Command } from "commander";
import type { CommandContext } from "../context.js";
import { collect } from "./options.js";
import { printQueued } from "./outbound-output.js";

/** `burnbox release <emailId>`: the received message as it was, to new recipients. */
export function addReleaseCommand(program: Command, ctx: CommandContext): void {
  program
    .command("release")
    .description("send a received email as it was (byte for byte, with Resent-* headers) to new recipients")
    .argument("<emailId>", "the email to release")
    .requiredOption("--to <address>", "a recipient; repeatable", collect)
    .option("--json", "print the answer as JSON")
    .action(async (emailId: string, o: { to: string[]; json?: boolean }) => {
      const bb = await ctx.client();
      printQueued(ctx, await bb.releaseEmail(emailId, o.to), o.json);
    });
}
