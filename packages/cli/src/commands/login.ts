import type { Command } from "commander";
import { originOf } from "../config.js";
import type { CommandContext } from "../context.js";
import { readPassword, saveLogin } from "./login-store.js";

/** `burnbox login`: email and password in, the tokens and the URL kept in the config file. */
export function addLoginCommand(program: Command, ctx: CommandContext): void {
  program
    .command("login")
    .description("log in with email and password; stores the tokens and the URL in the config file")
    .requiredOption("--email <email>", "the account's email address")
    .option("--password-stdin", "read the password from standard input (else BURNBOX_PASSWORD)")
    .action(async (o: { email: string; passwordStdin?: boolean }) => {
      const password = await readPassword(ctx, o.passwordStdin);
      const bb = await ctx.client({ needAuth: false });
      const result = await bb.login(o.email, password);
      saveLogin(ctx, bb, result.tokens);
      ctx.term.out(`logged in as ${o.email} at ${originOf(bb.baseUrl)} (${ctx.file()})`);
    });
}
