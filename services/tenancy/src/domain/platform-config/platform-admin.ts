import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import { isSystemAdmin } from "../access/rbac";

/** Platform configuration is a system admin's own session's business; an API key never is one (403). */
export function requirePlatformAdmin(ctx: RequestCtx): void {
  if (!isSystemAdmin(ctx.actor)) throw errors.forbidden("system admin required");
}
