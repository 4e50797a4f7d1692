import type { UpdateWebhookBody, Webhook } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import type { DispatcherDeps } from "../deps";
import { authorizeTeam, teamWebhook, type WebhookRef } from "./team-access";
import { assertWebhookUrl } from "./webhook-url";

/** Changes url, events or active; a new url passes the rules of create again. */
export async function updateWebhook(
  deps: DispatcherDeps,
  ctx: RequestCtx,
  input: WebhookRef & { changes: UpdateWebhookBody },
): Promise<Webhook> {
  const scope = await authorizeTeam(deps, ctx, input, "team.webhooks.manage");
  const hook = await teamWebhook(deps, scope, input.webhookId);
  const { changes } = input;
  if (changes.url !== undefined) assertWebhookUrl(deps, changes.url);
  return deps.data.write(async (repos, events) => {
    const updated = await repos.webhooks.update(scope, hook.id, { ...changes, url: changes.url?.trim() });
    if (!updated) throw errors.notFound("webhook");
    events.audit({
      ctx,
      action: "webhook.updated",
      org_id: scope.orgId,
      team_id: scope.teamId,
      target: { type: "webhook", id: hook.id, name: updated.url },
      metadata: { fields: Object.keys(changes).filter((k) => changes[k as keyof UpdateWebhookBody] !== undefined) },
    });
    return updated;
  });
}
