import type { User } from "@burnbox/contracts";
import type { AuditActor } from "@burnbox/service-kit/data";
import type { UserChanges } from "../../data/user.repository";
import type { IdentityDeps } from "../deps";

/** Changes a user's record and audits it (under `action`, with `metadata`) in one transaction. */
export function changeUser(
  deps: IdentityDeps,
  ctx: AuditActor,
  change: { userId: string; changes: UserChanges; action: string; metadata: Record<string, unknown> },
): Promise<User> {
  return deps.data.write(async (repos, events) => {
    const user = await repos.users.update(change.userId, change.changes);
    events.audit({ ctx, action: change.action, org_id: null, target: { type: "user", id: change.userId }, metadata: change.metadata });
    return user;
  });
}
