import type { User } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import type { IdentityDeps } from "../deps";

export async function getMe(deps: IdentityDeps, ctx: RequestCtx): Promise<User> {
  const user = await deps.data.repos.users.get(ctx.actor.user_id);
  if (!user) throw errors.unauthenticated("user no longer exists");
  return user;
}
