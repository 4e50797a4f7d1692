import type { Command } from "commander";
import type { CommandContext } from "../context.js";
import { safeField } from "../terminal.js";

/** `burnbox read <emailId>`: one email's headers and text. */
export function addReadCommand(program: Command, ctx: CommandContext): void {
  const { term } = ctx;
  program
    .command("read")
    .description("print one email: its headers and text")
    .argument("<emailId>", "the email")
    .option("--json", "print the email as JSON")
    .action(async (emailId: string, o: { json?: boolean }) => {
      const bb = await ctx.client();
      const email = await bb.getEmail(emailId);
      if (o.json) return term.json(email);
      const header = (name: string, value: string) => term.out(`${name}: ${safeField(value)}`);
      header("From", email.from_address);
      header("To", email.to_address);
      header("Subject", email.subject);
      header("Date", email.received_at);
      if (email.attachments.length > 0) header("Attachments", email.attachments.map((a) => safeField(a.filename)).join(", "));
      term.out("");
      term.out(email.body_text ?? (email.body_html ? "(HTML only: use --json for body_html)" : ""));
    });
}
