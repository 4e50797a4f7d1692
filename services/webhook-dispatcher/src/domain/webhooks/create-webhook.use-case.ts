import { randomBytes, randomUUID } from "node:crypto";
import type { CreateWebhookBody, Webhook } from "@burnbox/contracts";
import type { TeamScope } from "@burnbox/service-kit/data";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import type { DispatcherDeps } from "../deps";
import { authorizeTeam } from "./team-access";
import { assertWebhookUrl } from "./webhook-url";

/**
 * Creates a team webhook; the signing secret (64 hex) is returned here and never again, and stored
 * only sealed with `encryption.key` (without a key: a 400, nothing stored).
 */
export async function createWebhook(
  deps: DispatcherDeps,
  ctx: RequestCtx,
  input: TeamScope & CreateWebhookBody,
): Promise<Webhook & { secret: string }> {
  const scope = await authorizeTeam(deps, ctx, input, "team.webhooks.manage");
  assertWebhookUrl(deps, input.url);
  const secret = randomBytes(32).toString("hex");
  const secretSealed = deps.secrets.seal(secret);
  const hook = await deps.data.write(async (repos, events) => {
    // an org or team removed meanwhile answers like an unknown team (see lockTenants)
    if (await repos.tenants.lockForCreate(scope)) throw errors.notFound("team");
    const created = await repos.webhooks.create(scope, {
      id: randomUUID(),
      createdBy: ctx.actor.user_id,
      url: input.url.trim(),
      events: input.events,
      secretSealed,
    });
    events.audit({
      ctx,
      action: "webhook.created",
      org_id: scope.orgId,
      team_id: scope.teamId,
      target: { type: "webhook", id: created.id },
      metadata: { url: created.url, events: input.events },
    });
    return created;
  });
  return { ...hook, secret };
}
