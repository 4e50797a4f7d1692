import type { RequestCtx } from "@burnbox/service-kit/http";
import type { IdentityDeps } from "../deps";
import { announceRevoked } from "../sessions/revocation";

/** Deletes an account (self-service or by an admin); its sessions and the keys it created stop working at once. */
export async function removeAccount(deps: IdentityDeps, ctx: RequestCtx, userId: string, action: string): Promise<void> {
  const sessions = await deps.data.write(async (repos, events) => {
    const sessions = await repos.sessions.unrevokedIds(userId);
    events.audit({ ctx, action, org_id: null, target: { type: "user", id: userId } });
    await repos.users.delete(userId); // the keys it created go with it (the repository records them)
    return sessions;
  });
  await announceRevoked(deps, sessions);
}
