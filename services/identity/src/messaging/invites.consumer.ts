import { EventType } from "@burnbox/contracts";
import { startConsumer, type RunningConsumer } from "@burnbox/service-kit";
import type { IdentityDeps } from "../domain/deps";
import { markInvitedEmailVerified } from "../domain/invites/mark-invited-email-verified.use-case";

/** An accepted invite proves the address it was mailed to: the account's email counts as verified. */
export function startInviteAcceptedConsumer(deps: IdentityDeps): Promise<RunningConsumer> {
  return startConsumer({
    nc: deps.nc,
    namespace: deps.config.nats.namespace,
    durable: "identity-invite-accepted",
    eventType: EventType.inviteAccepted,
    logger: deps.logger,
    handler: (event) => markInvitedEmailVerified(deps, { userId: event.data.user_id, email: event.data.email }),
  });
}
