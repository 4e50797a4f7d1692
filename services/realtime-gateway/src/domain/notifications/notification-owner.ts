import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";

/**
 * The user whose notifications the caller reaches: always the caller, and only as a user (no API
 * key holds a scope for notifications; the gateway refuses them too). Being the owner is the access.
 */
export function notificationOwner(ctx: RequestCtx): string {
  if (ctx.actor.api_key) throw errors.forbidden("insufficient scope");
  return ctx.actor.user_id;
}
