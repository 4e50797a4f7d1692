import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";

/** Account self-service is for the user's own session, never an API key (403). */
export function requireOwnSession(ctx: RequestCtx): string {
  if (ctx.actor.api_key) throw errors.forbidden("API keys cannot manage SSO identities");
  return ctx.actor.user_id;
}
