import type { Webhook } from "@burnbox/contracts";
import type { TeamScope } from "@burnbox/service-kit/data";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import { authorize } from "@burnbox/service-kit/security";
import type { DispatcherDeps } from "../deps";

/** A webhook as a path names it: its team and its id. */
export type WebhookRef = TeamScope & { webhookId: string };

/**
 * The access check of every webhook use case: the caller holds `permission` on the team (404 when
 * it may not even see the team, 403 when it lacks the permission). Returns the team as a scope.
 */
export async function authorizeTeam(
  deps: DispatcherDeps,
  ctx: RequestCtx,
  team: TeamScope,
  permission: "team.webhooks.view" | "team.webhooks.manage",
): Promise<TeamScope> {
  await authorize(deps.nc, deps.config.nats.namespace, { actor: ctx.actor, org_id: team.orgId, team_id: team.teamId, permission }, "team");
  return { orgId: team.orgId, teamId: team.teamId };
}

/** The team's webhook, or 404. */
export async function teamWebhook(deps: DispatcherDeps, scope: TeamScope, webhookId: string): Promise<Webhook> {
  const hook = await deps.data.repos.webhooks.find(scope, webhookId);
  if (!hook) throw errors.notFound("webhook");
  return hook;
}
