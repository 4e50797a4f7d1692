import type { Webhook } from "@burnbox/contracts";
import type { Prisma } from "./prisma";

type WebhookRow = Prisma.WebhookGetPayload<object>;

export function webhookView(w: WebhookRow): Webhook {
  return {
    id: w.id,
    team_id: w.teamId,
    created_by: w.createdBy,
    url: w.url,
    events: w.events as Webhook["events"],
    active: w.active,
    failure_count: w.failureCount,
    last_status: w.lastStatus,
    last_attempt_at: w.lastAttemptAt?.toISOString() ?? null,
    created_at: w.createdAt.toISOString(),
    updated_at: w.updatedAt.toISOString(),
  };
}
