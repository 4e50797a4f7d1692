import { randomBytes, randomUUID } from "node:crypto";
import {
  pageWindow,
  toPage,
  type Actor,
  type CreateWebhookBody,
  type Page,
  type PaginationQuery,
  type UpdateWebhookBody,
  type Webhook,
  type WebhookDeliveryLogEntry,
  type WebhookStats,
} from "@burnbox/contracts";
import { auditEvent, authorize, errors, outboxRow } from "@burnbox/service-kit";
import { webhookView } from "../data/views";
import type { DispatcherDeps } from "./deps";
import { webhookUrlProblem } from "./url-policy";

function checkUrl(deps: DispatcherDeps, url: string): void {
  const problem = webhookUrlProblem(url, deps.allowed);
  if (problem) throw errors.validation(problem, [{ path: "url", message: problem }]);
}

export interface TeamRef {
  orgId: string;
  teamId: string;
}

const can = (deps: DispatcherDeps, actor: Actor, team: TeamRef, permission: "team.webhooks.view" | "team.webhooks.manage") =>
  authorize(deps.nc, deps.config.nats.namespace, { actor, org_id: team.orgId, team_id: team.teamId, permission }, "team");

/** Creates a team webhook; the signing secret (64 hex) is returned here and never again. */
export async function createWebhook(
  deps: DispatcherDeps,
  actor: Actor,
  orgId: string,
  teamId: string,
  body: CreateWebhookBody,
  ip: string,
): Promise<Webhook & { secret: string }> {
  await can(deps, actor, { orgId, teamId }, "team.webhooks.manage");
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

async function loadHook(deps: DispatcherDeps, team: TeamRef, webhookId: string) {
  const hook = await deps.db.webhook.findFirst({ where: { id: webhookId, teamId: team.teamId, orgId: team.orgId } });
  if (!hook) throw errors.notFound("webhook");
  return hook;
}

export async function listWebhooks(deps: DispatcherDeps, actor: Actor, team: TeamRef, q: PaginationQuery): Promise<Page<Webhook>> {
  await can(deps, actor, team, "team.webhooks.view");
  const where = { teamId: team.teamId, orgId: team.orgId };
  const [rows, total] = await Promise.all([
    deps.db.webhook.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], ...pageWindow(q) }),
    deps.db.webhook.count({ where }),
  ]);
  return toPage(rows.map(webhookView), total, q);
}

export async function updateWebhook(
  deps: DispatcherDeps,
  actor: Actor,
  team: TeamRef,
  webhookId: string,
  body: UpdateWebhookBody,
  ip: string,
): Promise<Webhook> {
  await can(deps, actor, team, "team.webhooks.manage");
  const hook = await loadHook(deps, team, webhookId);
  if (body.url !== undefined) checkUrl(deps, body.url);
  const row = await deps.db.$transaction(async (tx) => {
    const w = await tx.webhook.update({
      where: { id: hook.id },
      data: {
        ...(body.url !== undefined ? { url: body.url.trim() } : {}),
        ...(body.events !== undefined ? { events: body.events } : {}),
        ...(body.active !== undefined ? { active: body.active } : {}),
      },
    });
    const fields = Object.keys(body).filter((k) => body[k as keyof UpdateWebhookBody] !== undefined);
    const event = auditEvent({
      action: "webhook.updated",
      actor,
      org_id: team.orgId,
      team_id: team.teamId,
      target_type: "webhook",
      target_id: hook.id,
      ip,
      metadata: { fields },
    });
    await tx.outboxEvent.create({ data: outboxRow(deps.config.nats.namespace, event) });
    return w;
  });
  deps.relay.kick();
  return webhookView(row);
}

/** Deletes the webhook, its pending deliveries and its log (the audit event keeps the record of it). */
export async function deleteWebhook(deps: DispatcherDeps, actor: Actor, team: TeamRef, webhookId: string, ip: string): Promise<void> {
  await can(deps, actor, team, "team.webhooks.manage");
  const hook = await loadHook(deps, team, webhookId);
  await deps.db.$transaction(async (tx) => {
    await tx.webhook.delete({ where: { id: hook.id } });
    const event = auditEvent({
      action: "webhook.deleted",
      actor,
      org_id: team.orgId,
      team_id: team.teamId,
      target_type: "webhook",
      target_id: hook.id,
      ip,
      metadata: { url: hook.url },
    });
    await tx.outboxEvent.create({ data: outboxRow(deps.config.nats.namespace, event) });
  });
  deps.relay.kick();
}

export async function listDeliveries(
  deps: DispatcherDeps,
  actor: Actor,
  team: TeamRef,
  webhookId: string,
  q: PaginationQuery,
): Promise<Page<WebhookDeliveryLogEntry>> {
  await can(deps, actor, team, "team.webhooks.view");
  const hook = await loadHook(deps, team, webhookId);
  const where = { webhookId: hook.id };
  const [rows, total] = await Promise.all([
    deps.db.deliveryAttempt.findMany({ where, orderBy: [{ createdAt: "desc" }, { attempt: "desc" }, { id: "desc" }], ...pageWindow(q) }),
    deps.db.deliveryAttempt.count({ where }),
  ]);
  return toPage(
    rows.map((a) => ({
      id: a.id,
      webhook_id: a.webhookId,
      delivery_id: a.deliveryId,
      event: a.event as WebhookDeliveryLogEntry["event"],
      attempt: a.attempt,
      success: a.success,
      response_status: a.responseStatus,
      response_time_ms: a.responseTimeMs,
      error: a.error,
      created_at: a.createdAt.toISOString(),
    })),
    total,
    q,
  );
}

/** Aggregates over the delivery log: every attempt counts, so retries show in the failure count. */
export async function webhookStats(deps: DispatcherDeps, actor: Actor, team: TeamRef, webhookId: string): Promise<WebhookStats> {
  await can(deps, actor, team, "team.webhooks.view");
  const hook = await loadHook(deps, team, webhookId);
  const [row] = await deps.db.$queryRaw<Array<{ total: bigint; ok: bigint; avg: number | null; last: Date | null }>>`
    SELECT count(*) AS total, count(*) FILTER (WHERE success) AS ok, avg(response_time_ms)::float8 AS avg, max(created_at) AS last
    FROM delivery_attempts WHERE webhook_id = ${hook.id}::uuid`;
  const total = Number(row?.total ?? 0);
  const ok = Number(row?.ok ?? 0);
  return {
    total_deliveries: total,
    success_count: ok,
    failure_count: total - ok,
    success_rate: total === 0 ? 0 : Math.round((ok / total) * 10_000) / 100,
    avg_response_time_ms: Math.round(row?.avg ?? 0),
    last_delivery_at: row?.last ? row.last.toISOString() : null,
  };
}
