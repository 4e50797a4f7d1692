import type { Command } from "commander";
import type { EmailSummary } from "@burnbox/sdk";
import type { CommandContext } from "../context.js";
import { emailRow } from "./options.js";

/** `burnbox tail <inboxId>`: the inbox live, one line per email, until interrupted or the inbox goes. */
export function addTailCommand(program: Command, ctx: CommandContext): void {
  const { term } = ctx;
  program
    .command("tail")
    .description("follow an inbox live: one line per email received until interrupted or the inbox is deleted")
    .argument("<inboxId>", "the inbox")
    .option("--json", "print each frame as one line of JSON")
    .action(async (inboxId: string, o: { json?: boolean }) => {
      const bb = await ctx.client();
      const live = bb.stream(inboxId);
      const stop = () => live.close();
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
      try {
        await live.ready;
        term.err(`following ${inboxId} (Ctrl-C to stop)`);
        for await (const frame of live) {
          if (o.json) term.json(frame, true);
          else if (frame.type === "email.received") emailRow(term, frame.data as unknown as EmailSummary);
          else term.row(frame.type);
        }
      } finally {
        process.off("SIGINT", stop);
        process.off("SIGTERM", stop);
      }
    });
}
