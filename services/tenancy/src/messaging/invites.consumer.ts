import { EventType } from "@burnbox/contracts";
import { startConsumer, type RunningConsumer } from "@burnbox/service-kit/messaging";
import type { Logger } from "@burnbox/service-kit/runtime";
import type { TenancyDeps } from "../domain/deps";
import { countTeamResource } from "../domain/impact/count-team-resource.use-case";
import { redeemRegistrationInvite } from "../domain/invites/redeem-registration-invite.use-case";

const REDEEMED = "tenancy-invite-redeemed";
const RESOURCES = "tenancy-team-resource-counts";

/**
 * Registrations with an invite (identity's `invite.redeemed`) join the invite's org; and the
 * impact counters (webhooks, API keys per team) follow the owning services' audit events.
 */
export async function startInviteConsumers(deps: TenancyDeps, logger: Logger): Promise<RunningConsumer[]> {
  const { nc } = deps;
  const namespace = deps.config.nats.namespace;
  return Promise.all([
    startConsumer({
      nc,
      namespace,
      durable: REDEEMED,
      eventType: EventType.inviteRedeemed,
      logger,
      // the event form of the RPC's redemption (identity's `invite.redeemed`, written with the user)
      handler: async (event) => {
        await redeemRegistrationInvite(deps, logger, {
          tokenHash: event.data.token_hash,
          userId: event.data.user_id,
          email: event.data.email,
        });
      },
    }),
    startConsumer({
      nc,
      namespace,
      durable: RESOURCES,
      eventType: EventType.auditRecorded,
      logger,
      handler: (event) => countTeamResource(deps, { consumer: RESOURCES, event }),
    }),
  ]);
}
