import type { RequestCtx } from "@burnbox/service-kit/http";
import { verifyOwnPassword } from "../auth/credentials";
import type { IdentityDeps, Message } from "../deps";
import { removeAccount } from "./remove-account";

/** Deletes one's own account after re-checking the password. */
export async function deleteMe(deps: IdentityDeps, ctx: RequestCtx, input: { password: string }): Promise<Message> {
  await verifyOwnPassword(deps, ctx.actor.user_id, input.password);
  await removeAccount(deps, ctx, ctx.actor.user_id, "user.deleted");
  return { message: "account deleted" };
}
