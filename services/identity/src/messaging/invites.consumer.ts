import { EventType, RpcName } from "@burnbox/contracts";
import { serveRpc, startConsumer, type RunningConsumer } from "@burnbox/service-kit/messaging";
import type { Logger } from "@burnbox/service-kit/runtime";
import type { IdentityDeps } from "../domain/deps";
import { markInvitedEmailVerified } from "../domain/invites/mark-invited-email-verified.use-case";

/** An accepted invite proves the address it was mailed to: the account's email counts as verified. */
export async function startInviteAcceptedConsumer(deps: IdentityDeps, logger: Logger): Promise<RunningConsumer[]> {
  return [
    await startConsumer({
      nc: deps.nc,
      namespace: deps.config.nats.namespace,
      durable: "identity-invite-accepted",
      eventType: EventType.inviteAccepted,
      logger,
      handler: (event) => markInvitedEmailVerified(deps, { userId: event.data.user_id, email: event.data.email }),
    }),
  ];
}

/** The same, asked by tenancy before it answers the acceptance (read your writes); the event is the durable replay. */
export function serveInviteAcceptedRpc(deps: IdentityDeps): { stop(): Promise<void> } {
  return serveRpc(
    deps.nc,
    deps.config.nats.namespace,
    RpcName.markInvitedEmailVerified,
    async (req) => {
      await markInvitedEmailVerified(deps, { userId: req.user_id, email: req.email });
      return {};
    },
    deps.logger,
  );
}
