import type { IdentityDeps } from "../deps";
import { selfActor } from "../audit-actor";
import { announceRevoked } from "../sessions/revocation";

/**
 * Undoes `createSetupAdmin` when tenancy's half of setup failed: deletes the admin, but only the
 * one setup created (any other user id is left alone), and its sessions stop working at once.
 */
export async function abortSetupAdmin(deps: IdentityDeps, userId: string): Promise<boolean> {
  const sessions = await deps.data.write(async (repos, events) => {
    await repos.setup.lock();
    if (!(await repos.setup.isSetupAdmin(userId))) return null;
    const ids = await repos.sessions.unrevokedIds(userId);
    await repos.setup.forgetSetupAdmin(userId);
    if (await repos.users.get(userId)) await repos.users.delete(userId);
    events.audit({ ctx: selfActor(userId, null), action: "setup.admin_removed", org_id: null, target: { type: "setup", id: userId } });
    return ids;
  });
  if (!sessions) return false;
  await announceRevoked(deps, sessions);
  return true;
}
