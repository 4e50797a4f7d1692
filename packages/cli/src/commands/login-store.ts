import type { BurnBox } from "@burnbox/sdk";
import { originOf, readConfig, withLogin, writeConfig } from "../config.js";
import type { CommandContext } from "../context.js";
import { UsageError } from "../usage-error.js";

/** The password of `login` and `register`: standard input with --password-stdin, else BURNBOX_PASSWORD. */
export async function readPassword(ctx: CommandContext, fromStdin: boolean | undefined): Promise<string> {
  const password = fromStdin ? (await ctx.io.stdin()).replace(/\r?\n$/, "") : ctx.io.env.BURNBOX_PASSWORD;
  if (!password) throw new UsageError("no password: pass --password-stdin or set BURNBOX_PASSWORD");
  return password;
}

/** Keeps the tokens under the URL's origin in the config file (mode 600), beside the other logins; the URL becomes the default. */
export function saveLogin(ctx: CommandContext, bb: BurnBox, tokens: { access_token: string; refresh_token: string }): void {
  const baseUrl = bb.baseUrl.replace(/\/api\/v1$/, "");
  const login = { access_token: tokens.access_token, refresh_token: tokens.refresh_token };
  writeConfig(ctx.file(), { ...withLogin(readConfig(ctx.file()), originOf(baseUrl), login), base_url: baseUrl });
}
