import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import { removeAccount } from "../account/remove-account";
import type { IdentityDeps, Message } from "../deps";
import { requireSystemAdmin, requireUser } from "./system-admin";

/** Deletes another user's account; one's own goes through DELETE /auth/me (with the password). */
export async function deleteUser(deps: IdentityDeps, ctx: RequestCtx, input: { userId: string }): Promise<Message> {
  requireSystemAdmin(ctx);
  await requireUser(deps, input.userId);
  if (input.userId === ctx.actor.user_id) throw errors.validation("use DELETE /auth/me to delete your own account");
  await removeAccount(deps, ctx, input.userId, "admin.user_deleted");
  return { message: "user deleted" };
}
