import type { DueDelivery } from "../../data/delivery-queue.repository";

/**
 * Which due deliveries to claim: at most `limit`, in the order given, and no more per webhook
 * than its free slots (`perWebhookLimit` minus what is in flight to it), so one slow receiver only
 * ever holds its own slots.
 */
export function pickDue(
  candidates: readonly DueDelivery[],
  opts: { limit: number; perWebhookLimit: number; inFlight: ReadonlyMap<string, number> },
): string[] {
  const picked: string[] = [];
  const planned = new Map(opts.inFlight);
  for (const c of candidates) {
    if (picked.length >= opts.limit) break;
    const n = planned.get(c.webhookId) ?? 0;
    if (n >= opts.perWebhookLimit) continue;
    planned.set(c.webhookId, n + 1);
    picked.push(c.id);
  }
  return picked;
}
