import type { RequestCtx } from "@burnbox/service-kit";
import { publishKeyState } from "../api-keys/key-cache";
import type { IdentityDeps } from "../deps";
import { announceRevoked } from "../sessions/revocation";

/** Deletes an account (self-service or by an admin); its sessions and the keys it created stop working at once. */
export async function removeAccount(deps: IdentityDeps, ctx: RequestCtx, userId: string, action: string): Promise<void> {
  const { sessions, keys } = await deps.data.write(async (repos, events) => {
    const sessions = await repos.sessions.unrevokedIds(userId);
    const keys = await repos.apiKeys.hashesCreatedBy(userId);
    events.audit({ ctx, action, org_id: null, target: { type: "user", id: userId } });
    await repos.users.delete(userId);
    return { sessions, keys };
  });
  await announceRevoked(deps, sessions);
  await publishKeyState(
    deps,
    keys.map((hash) => ({ hash, state: null })),
  ).catch((err: unknown) => deps.logger.warn({ err }, "key cache not cleared"));
}
