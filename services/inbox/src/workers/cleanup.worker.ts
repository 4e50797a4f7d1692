import { parseDurationMs } from "@burnbox/contracts";
import { newEvent, outboxRow, type Logger } from "@burnbox/service-kit";
import type { InboxDeps } from "../domain/deps";

/**
 * Removes inboxes whose TTL has lapsed, with their mail, and emits `inbox.expired` on the first
 * cycle after expiry. Rows are claimed with SKIP LOCKED, so several replicas share the work
 * and never expire one inbox twice.
 */
export async function expireInboxes(deps: InboxDeps, batch = 200): Promise<number> {
  const ns = deps.config.nats.namespace;
  const now = new Date(deps.now());
  const expired = await deps.db.$transaction(async (tx) => {
    const rows = await tx.$queryRaw<Array<{ id: string; org_id: string; team_id: string; full_address: string; expires_at: Date }>>`
      SELECT id, org_id, team_id, full_address, expires_at FROM inboxes
      WHERE expires_at <= ${now} ORDER BY expires_at LIMIT ${batch} FOR UPDATE SKIP LOCKED`;
    if (rows.length === 0) return rows;
    await tx.inbox.deleteMany({ where: { id: { in: rows.map((r) => r.id) } } });
    await tx.outboxEvent.createMany({
      data: rows.map((r) =>
        outboxRow(
          ns,
          newEvent("inbox.expired", {
            org_id: r.org_id,
            team_id: r.team_id,
            data: { inbox_id: r.id, team_id: r.team_id, full_address: r.full_address, expired_at: now.toISOString() },
          }),
        ),
      ),
    });
    return rows;
  });
  if (expired.length > 0) deps.relay.kick();
  await Promise.all(expired.map((r) => deps.storage.removeFolder(r.id)));
  return expired.length;
}

export function startCleanupWorker(deps: InboxDeps, logger: Logger): { stop(): Promise<void> } {
  const interval = parseDurationMs(deps.config.workers.cleanup_interval);
  let running: Promise<void> | null = null;
  const cycle = () => {
    if (running) return;
    running = (async () => {
      try {
        for (;;) {
          const n = await expireInboxes(deps);
          if (n > 0) logger.info({ expired: n }, "expired inboxes removed");
          if (n < 200) break;
        }
      } catch (err) {
        logger.warn({ err }, "cleanup cycle failed; will retry next cycle");
      } finally {
        running = null;
      }
    })();
  };
  const timer = setInterval(cycle, interval);
  cycle();
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
