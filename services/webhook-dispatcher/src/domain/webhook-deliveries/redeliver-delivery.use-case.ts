import type { Redelivery } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import type { DispatcherDeps } from "../deps";
import { authorizeTeam, teamWebhook, type WebhookRef } from "../webhooks/team-access";

/**
 * Queues one of the webhook's deliveries again (extensions 6): the same body under the same
 * delivery id, a new series of attempts from the durable queue, so the worker sends it (signed at
 * sending time, addresses checked again) and retries it like any delivery, across restarts. 409
 * while its own series is in flight or while the webhook is disabled (the OpenAPI description
 * says why); 404 for a delivery the webhook does not have, as for another team's.
 */
export async function redeliverDelivery(
  deps: DispatcherDeps,
  ctx: RequestCtx,
  input: WebhookRef & { deliveryId: string },
): Promise<Redelivery> {
  const scope = await authorizeTeam(deps, ctx, input, "team.webhooks.manage");
  const hook = await teamWebhook(deps, scope, input.webhookId);
  return deps.data.write(async (repos, events) => {
    const found = await repos.deliveries.redeliver(scope, hook.id, input.deliveryId, new Date(deps.now()));
    if (!found) throw errors.notFound("delivery");
    if (!found.webhookActive) throw errors.conflict("webhook is disabled: enable it (PATCH active: true) before redelivering");
    if (!found.queued)
      throw errors.conflict("delivery is still in flight (an attempt or a retry is pending): redeliver once its series has ended");
    events.audit({
      ctx,
      action: "webhook.redelivered",
      org_id: scope.orgId,
      team_id: scope.teamId,
      target: { type: "webhook", id: hook.id, name: hook.url },
      metadata: { delivery_id: input.deliveryId, previous_status: found.status },
    });
    return { delivery_id: input.deliveryId };
  });
}
