import type { WebhookStats } from "@burnbox/contracts";
import type { LogFigures } from "../../data/delivery.repository";

/**
 * Stats over the delivery log, per attempt (a delivery retried twice then delivered counts 3):
 * success rate in percent to 2 decimals, mean response time rounded, 0 when there is no attempt.
 */
export function webhookStats(f: LogFigures): WebhookStats {
  return {
    total_deliveries: f.attempts,
    success_count: f.succeeded,
    failure_count: f.attempts - f.succeeded,
    success_rate: f.attempts === 0 ? 0 : Math.round((f.succeeded / f.attempts) * 10_000) / 100,
    avg_response_time_ms: Math.round(f.avgResponseTimeMs ?? 0),
    last_delivery_at: f.lastAttemptAt ? f.lastAttemptAt.toISOString() : null,
  };
}
