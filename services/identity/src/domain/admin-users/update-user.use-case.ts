import type { User } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import { changeUser } from "../account/change-user";
import type { IdentityDeps } from "../deps";
import { revokeSessions } from "../sessions/revocation";
import { requireSystemAdmin, requireUser } from "./system-admin";

/** Changes a user, including their own session cap; a change of admin rights ends their sessions. */
export async function updateUser(
  deps: IdentityDeps,
  ctx: RequestCtx,
  input: {
    userId: string;
    changes: { display_name?: string; is_system_admin?: boolean; email_verified?: boolean; max_sessions?: number | null };
  },
): Promise<User> {
  requireSystemAdmin(ctx);
  const { userId, changes } = input;
  await requireUser(deps, userId);
  if (changes.is_system_admin === false && userId === ctx.actor.user_id) {
    throw errors.validation("you cannot remove your own system-admin rights");
  }
  const user = await changeUser(deps, ctx, {
    userId,
    changes: {
      displayName: changes.display_name,
      isSystemAdmin: changes.is_system_admin,
      emailVerified: changes.email_verified,
      maxSessions: changes.max_sessions,
    },
    action: "admin.user_updated",
    metadata: { fields: Object.keys(changes) },
  });
  // a change of admin rights must not live on in access tokens already issued
  if (changes.is_system_admin !== undefined) {
    await revokeSessions(deps, userId, await deps.data.repos.sessions.unrevokedIds(userId), "admin_rights_changed");
  }
  return user;
}
