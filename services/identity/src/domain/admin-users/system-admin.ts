import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import type { IdentityDeps } from "../deps";

/** Admin operations take a system admin's own session; API keys never act as one. */
export function requireSystemAdmin(ctx: RequestCtx, message = "system admin required"): void {
  if (!ctx.actor.is_system_admin || ctx.actor.api_key) throw errors.forbidden(message);
}

/** 404 unless the user exists. */
export async function requireUser(deps: IdentityDeps, userId: string): Promise<void> {
  if (!(await deps.data.repos.users.get(userId))) throw errors.notFound("user");
}
