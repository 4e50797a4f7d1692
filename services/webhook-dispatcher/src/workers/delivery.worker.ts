import { randomUUID } from "node:crypto";
import { parseDurationMs } from "@burnbox/contracts";
import type { Logger } from "@burnbox/service-kit";
import type { DispatcherDeps } from "../domain/deps";
import { sendWebhook } from "../domain/sender";

interface Claimed {
  id: string;
  webhook_id: string;
  event: string;
  body: string;
  attempts: number;
  /** The webhook as it is at claim time (one round trip for both). */
  url: string;
  secret: string;
  active: boolean;
}

/** Delay before attempt n+1 after attempt n failed: base, 5 x base, 25 x base, ... (spec 6.3). */
export const retryDelayMs = (failedAttempt: number, baseMs: number): number => baseMs * 5 ** (failedAttempt - 1);

/**
 * Sends due deliveries. Schedules are rows (status pending, next_attempt_at), so they survive
 * restarts; a claim pushes next_attempt_at past the attempt's timeout (a lease), so a delivery
 * whose sender died becomes due again, and an UPDATE over rows locked FOR UPDATE SKIP LOCKED
 * makes each claim exclusive across replicas without them waiting on each other. Concurrency is bounded overall and per webhook, so one slow receiver only
 * ever holds its own slots.
 */
export function startDeliveryWorker(deps: DispatcherDeps, logger: Logger) {
  const cfg = deps.config;
  const timeoutMs = parseDurationMs(cfg.defaults.webhook_timeout);
  const baseMs = parseDurationMs(cfg.delivery.retry_base);
  const leaseMs = timeoutMs + 30_000;
  const perHook = new Map<string, number>();
  const inFlight = new Set<Promise<void>>();
  let stopped = false;
  let ticking: Promise<void> | null = null;
  let again = false;

  async function claim(limit: number): Promise<Claimed[]> {
    const candidates = await deps.db.delivery.findMany({
      where: { status: "pending", nextAttemptAt: { lte: new Date() } },
      orderBy: { nextAttemptAt: "asc" },
      take: limit * 4,
      select: { id: true, webhookId: true },
    });
    const picked: string[] = [];
    const planned = new Map(perHook);
    for (const c of candidates) {
      if (picked.length >= limit) break;
      const n = planned.get(c.webhookId) ?? 0;
      if (n >= cfg.delivery.per_webhook_concurrency) continue;
      planned.set(c.webhookId, n + 1);
      picked.push(c.id);
    }
    if (picked.length === 0) return [];
    // SKIP LOCKED: rows another replica is claiming right now are passed over instead of waited on;
    // the re-checked status/next_attempt_at makes a row claimed a moment ago (lease set) ineligible.
    return deps.db.$queryRaw<Claimed[]>`
      UPDATE deliveries d SET attempts = d.attempts + 1, next_attempt_at = now() + make_interval(secs => ${leaseMs / 1000})
      FROM (
        SELECT id FROM deliveries
        WHERE id = ANY(${picked}::uuid[]) AND status = 'pending' AND next_attempt_at <= now()
        FOR UPDATE SKIP LOCKED
      ) due, webhooks w
      WHERE d.id = due.id AND w.id = d.webhook_id
      RETURNING d.id, d.webhook_id, d.event, d.body, d.attempts, w.url, w.secret, w.active`;
  }

  async function attempt(d: Claimed): Promise<void> {
    const hook = { id: d.webhook_id, url: d.url, secret: d.secret, active: d.active };
    if (!hook.active) {
      await deps.db.delivery.update({ where: { id: d.id }, data: { status: "cancelled", completedAt: new Date(), nextAttemptAt: null } });
      return;
    }
    const result = await sendWebhook({
      url: hook.url,
      secret: hook.secret,
      body: d.body,
      event: d.event,
      deliveryId: d.id,
      timeoutMs,
      allowed: deps.allowed,
      resolver: deps.resolver,
    });
    const now = new Date();
    const last = d.attempts >= cfg.defaults.webhook_max_retries;
    const nextAttemptAt = new Date(now.getTime() + retryDelayMs(d.attempts, baseMs));
    // One round trip for the log row and the schedule; the failure counter only moves on a final failure.
    await deps.db.$transaction([
      deps.db.deliveryAttempt.create({
        data: {
          id: randomUUID(),
          webhookId: hook.id,
          deliveryId: d.id,
          event: d.event,
          attempt: d.attempts,
          success: result.success,
          responseStatus: result.status,
          responseTimeMs: result.timeMs,
          error: result.error,
          createdAt: now,
        },
      }),
      result.success
        ? deps.db.delivery.update({ where: { id: d.id }, data: { status: "succeeded", completedAt: now, nextAttemptAt: null } })
        : last
          ? deps.db.delivery.update({ where: { id: d.id }, data: { status: "failed", completedAt: now, nextAttemptAt: null } })
          : deps.db.delivery.update({ where: { id: d.id }, data: { nextAttemptAt } }),
      ...(!result.success && last ? [deps.db.webhook.update({ where: { id: hook.id }, data: { failureCount: { increment: 1 } } })] : []),
    ]);
    // Last status is informational: a short statement of its own, skipped when a newer attempt already wrote it,
    // so concurrent deliveries to one webhook do not queue behind each other's transactions.
    await deps.db.webhook.updateMany({
      where: { id: hook.id, OR: [{ lastAttemptAt: null }, { lastAttemptAt: { lt: now } }] },
      data: { lastStatus: result.status, lastAttemptAt: now },
    });
    if (!result.success) {
      logger.warn(
        { delivery_id: d.id, webhook_id: hook.id, attempt: d.attempts, status: result.status, error: result.error, final: last },
        "webhook attempt failed",
      );
    }
  }

  function run(d: Claimed): void {
    perHook.set(d.webhook_id, (perHook.get(d.webhook_id) ?? 0) + 1);
    const p = attempt(d)
      .catch((err: unknown) => logger.error({ err, delivery_id: d.id }, "delivery attempt crashed; it will be retried after its lease"))
      .finally(() => {
        inFlight.delete(p);
        const n = (perHook.get(d.webhook_id) ?? 1) - 1;
        if (n <= 0) perHook.delete(d.webhook_id);
        else perHook.set(d.webhook_id, n);
        kick();
      });
    inFlight.add(p);
  }

  async function tick(): Promise<void> {
    for (;;) {
      const free = cfg.delivery.concurrency - inFlight.size;
      if (stopped || free <= 0) return;
      const claimed = await claim(free);
      claimed.forEach(run);
      if (claimed.length < free) return;
    }
  }

  function kick(): void {
    if (stopped) return;
    if (ticking) {
      again = true;
      return;
    }
    ticking = tick()
      .catch((err: unknown) => logger.warn({ err }, "delivery poll failed"))
      .finally(() => {
        ticking = null;
        if (again) {
          again = false;
          kick();
        }
      });
  }

  const timer = setInterval(kick, parseDurationMs(cfg.delivery.poll_interval));
  kick();
  return {
    kick,
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await ticking;
      await Promise.allSettled([...inFlight]);
    },
  };
}
