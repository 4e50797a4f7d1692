import type { Command } from "commander";
import { originOf } from "../config.js";
import type { CommandContext } from "../context.js";
import { readPassword, saveLogin } from "./login-store.js";

/** `burnbox register`: the first account on a new BurnBox, logged in as `login` would. */
export function addRegisterCommand(program: Command, ctx: CommandContext): void {
  program
    .command("register")
    .description("create an account (the first step on a new BurnBox) and log in as it, as login does")
    .requiredOption("--email <email>", "the account's email address")
    .option("--name <displayName>", "your display name (default: the email's local part)")
    .option("--password-stdin", "read the password from standard input (else BURNBOX_PASSWORD)")
    .action(async (o: { email: string; name?: string; passwordStdin?: boolean }) => {
      const password = await readPassword(ctx, o.passwordStdin);
      const bb = await ctx.client({ needAuth: false });
      const result = await bb.register({ email: o.email, password, display_name: o.name ?? o.email.split("@")[0] ?? o.email });
      saveLogin(ctx, bb, result.tokens);
      ctx.term.out(`registered and logged in as ${o.email} at ${originOf(bb.baseUrl)} (${ctx.file()})`);
    });
}
