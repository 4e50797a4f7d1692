import { parseDurationMs } from "@burnbox/contracts";
import { pipeline } from "@burnbox/service-kit/runtime";
import { contextFromHeaders } from "@burnbox/service-kit/telemetry";
import type { AttemptRecord, ClaimedDelivery } from "../../data/delivery-queue.repository";
import type { DispatcherDeps } from "../deps";
import { sendWebhook } from "../../adapters/webhook-sender";
import { attemptOutcome } from "./retry-schedule";

/**
 * One attempt of a claimed delivery: cancelled if its webhook was deactivated, else one signed POST
 * (the target's addresses checked again now), logged, and scheduled again or closed. Returns the
 * record written, or null when the delivery was cancelled.
 */
export async function attemptDelivery(deps: DispatcherDeps, delivery: ClaimedDelivery): Promise<AttemptRecord | null> {
  if (!delivery.active) {
    await deps.data.hot.deliveries.cancel(delivery.id, new Date(deps.now()));
    return null;
  }
  const secret = signingSecret(deps, delivery);
  // an unreadable secret (key missing or changed) fails the attempt without a POST
  const result =
    secret === null
      ? { success: false, status: null, timeMs: 0, error: UNREADABLE_SECRET }
      : await sendWebhook({
          url: delivery.url,
          secret,
          body: delivery.body,
          event: delivery.event,
          deliveryId: delivery.id,
          timeoutMs: parseDurationMs(deps.config.defaults.webhook_timeout),
          allowed: deps.allowed,
          resolver: deps.resolver,
          now: deps.now,
          // continues the trace of the span that scheduled it, stored with the delivery (docs/operations.md)
          ...(delivery.traceParent ? { trace: contextFromHeaders({ traceparent: delivery.traceParent }) } : {}),
        });
  const outcome = result.success ? "success" : result.status === null ? "error" : "http_error";
  pipeline.webhookAttempts.inc({ outcome });
  pipeline.webhookLatency.observe({ outcome }, result.timeMs / 1000);
  const at = new Date(deps.now());
  const record: AttemptRecord = {
    delivery,
    success: result.success,
    responseStatus: result.status,
    responseTimeMs: result.timeMs,
    error: result.error,
    outcome: attemptOutcome({
      success: result.success,
      attempt: delivery.attempts,
      maxAttempts: deps.config.defaults.webhook_max_retries,
      retryBaseMs: parseDurationMs(deps.config.delivery.retry_base),
      at,
    }),
    at,
  };
  await deps.data.hot.deliveries.record(record);
  return record;
}

const UNREADABLE_SECRET = "the webhook's signing secret cannot be read: check encryption.key";

/** The webhook's secret opened with `encryption.key` (or the clear one of a previous release's row not sealed yet); null when it cannot be read. */
function signingSecret(deps: DispatcherDeps, delivery: ClaimedDelivery): string | null {
  if (delivery.secretSealed) {
    try {
      return deps.secrets.open(delivery.secretSealed);
    } catch {
      return null;
    }
  }
  return delivery.legacySecret || null;
}
