import type { EventOf } from "@burnbox/contracts";
import type { Logger } from "@burnbox/service-kit/runtime";
import type { TenancyDeps } from "../deps";
import { applyMembership } from "./apply-membership";

/**
 * The memberships of a user a first SSO login created (`user.sso_provisioned`, written by identity
 * in the user's own transaction): applied once per event, all in one transaction, so a tenancy that
 * was down at sign-in catches up from the stream. An org or team that no longer exists, an archived
 * team or an unknown role is skipped (and logged), as at sign-in.
 */
export async function provisionSsoUser(
  deps: TenancyDeps,
  logger: Logger,
  input: { consumer: string; event: EventOf<"user.sso_provisioned"> },
): Promise<void> {
  const { consumer, event } = input;
  const outcomes = await deps.data.write(async (tx, events) => {
    if (!(await tx.processedEvents.claim(consumer, event.id))) return [];
    const applied = [];
    for (const m of event.data.memberships) {
      const reply = await applyMembership(tx, events, { ...m, user_id: event.data.user_id, provider: event.data.provider });
      applied.push({ membership: m, reply });
    }
    return applied;
  });
  for (const { membership, reply } of outcomes) {
    const ok = (reply.org === "added" || reply.org === "existing") && ["added", "existing", "none"].includes(reply.team);
    if (!ok) logger.warn({ user_id: event.data.user_id, membership, reply }, "SSO membership not provisioned");
  }
}
