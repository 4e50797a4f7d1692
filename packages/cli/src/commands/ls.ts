import type { Command } from "commander";
import type { CommandContext } from "../context.js";
import { emailRow, positiveInt } from "./options.js";

/** `burnbox ls [inboxId]`: your inboxes, or one inbox's emails, newest first. */
export function addLsCommand(program: Command, ctx: CommandContext): void {
  const { term } = ctx;
  program
    .command("ls")
    .description("list your inboxes, or with an inbox id the emails of that inbox (newest first)")
    .argument("[inboxId]", "the inbox whose emails to list")
    .option("--page <n>", "page number", positiveInt)
    .option("--per-page <n>", "items per page", positiveInt)
    .option("--json", "print the page as JSON")
    .action(async (inboxId: string | undefined, o: { page?: number; perPage?: number; json?: boolean }) => {
      const bb = await ctx.client();
      const query = { ...(o.page ? { page: o.page } : {}), ...(o.perPage ? { per_page: o.perPage } : {}) };
      if (inboxId) {
        const page = await bb.listEmails(inboxId, query);
        if (o.json) return term.json(page);
        for (const e of page.data) emailRow(term, e);
      } else {
        const page = await bb.listInboxes(query);
        if (o.json) return term.json(page);
        for (const i of page.data)
          term.row(i.id, i.full_address, `${i.email_count} emails`, `${i.unread_count} unread`, `expires ${i.expires_at}`);
      }
    });
}
