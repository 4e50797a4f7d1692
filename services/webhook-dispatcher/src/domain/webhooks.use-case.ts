import { randomBytes, randomUUID } from "node:crypto";
import type { Actor, CreateWebhookBody, Webhook } from "@burnbox/contracts";
import { auditEvent, authorize, errors, outboxRow } from "@burnbox/service-kit";
import { webhookView } from "../data/views";
import type { DispatcherDeps } from "./deps";
import { webhookUrlProblem } from "./url-policy";

function checkUrl(deps: DispatcherDeps, url: string): void {
  const problem = webhookUrlProblem(url, deps.allowed);
  if (problem) throw errors.validation(problem, [{ path: "url", message: problem }]);
}

/** Creates a team webhook; the signing secret (64 hex) is returned here and never again. */
export async function createWebhook(
  deps: DispatcherDeps,
  actor: Actor,
  orgId: string,
  teamId: string,
  body: CreateWebhookBody,
  ip: string,
): Promise<Webhook & { secret: string }> {
  await authorize(
    deps.nc,
    deps.config.nats.namespace,
    { actor, org_id: orgId, team_id: teamId, permission: "team.webhooks.manage" },
    "team",
  );
  checkUrl(deps, body.url);
  const id = randomUUID();
  const secret = randomBytes(32).toString("hex");
  const row = await deps.db.$transaction(async (tx) => {
    const w = await tx.webhook.create({
      data: { id, orgId, teamId, createdBy: actor.user_id, url: body.url.trim(), events: body.events, secret },
    });
    const event = auditEvent({
      action: "webhook.created",
      actor,
      org_id: orgId,
      team_id: teamId,
      target_type: "webhook",
      target_id: id,
      ip,
      metadata: { url: w.url, events: body.events },
    });
    await tx.outboxEvent.create({ data: outboxRow(deps.config.nats.namespace, event) });
    return w;
  });
  deps.relay.kick();
  return { ...webhookView(row), secret };
}
