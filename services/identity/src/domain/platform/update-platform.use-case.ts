import type { RequestCtx } from "@burnbox/service-kit";
import { requireSystemAdmin } from "../admin-users/system-admin";
import type { IdentityDeps } from "../deps";
import { platformSessionCap } from "./session-cap";

/** Merges the given platform settings and answers with all of them. */
export async function updatePlatform(
  deps: IdentityDeps,
  ctx: RequestCtx,
  input: { max_sessions_per_user?: number | undefined },
): Promise<{ max_sessions_per_user: number }> {
  requireSystemAdmin(ctx);
  const value = input.max_sessions_per_user;
  if (value !== undefined) {
    await deps.data.write(async (repos, events) => {
      await repos.platform.setMaxSessionsPerUser(value);
      events.audit({
        ctx,
        action: "admin.platform_updated",
        org_id: null,
        target: { type: "user", id: ctx.actor.user_id },
        metadata: { max_sessions_per_user: value },
      });
    });
  }
  return { max_sessions_per_user: await platformSessionCap(deps, deps.data.repos) };
}
