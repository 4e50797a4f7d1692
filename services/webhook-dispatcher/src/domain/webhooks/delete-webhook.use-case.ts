import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import type { DispatcherDeps } from "../deps";
import { authorizeTeam, teamWebhook, type WebhookRef } from "./team-access";

/** Deletes the webhook, its pending deliveries and its log (the audit entry keeps the record of it). */
export async function deleteWebhook(deps: DispatcherDeps, ctx: RequestCtx, input: WebhookRef): Promise<{ message: string }> {
  const scope = await authorizeTeam(deps, ctx, input, "team.webhooks.manage");
  const hook = await teamWebhook(deps, scope, input.webhookId);
  await deps.data.write(async (repos, events) => {
    if (!(await repos.webhooks.delete(scope, hook.id))) throw errors.notFound("webhook");
    events.audit({
      ctx,
      action: "webhook.deleted",
      org_id: scope.orgId,
      team_id: scope.teamId,
      target: { type: "webhook", id: hook.id },
      metadata: { url: hook.url },
    });
  });
  return { message: "webhook deleted" };
}
