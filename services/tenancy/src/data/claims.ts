/** The idempotency record of one event for one consumer (`processed_events`). */
export interface Claim {
  consumer: string;
  eventId: string;
}

const keyOf = (c: Claim) => `${c.consumer}|${c.eventId}`;

/**
 * A batch of claim-and-count items for one statement: `unique` holds each event once (its first
 * item), and `outcomes` answers every item of the batch from the claims the statement made (the
 * rows of its `INSERT INTO processed_events ... RETURNING consumer, event_id`): true for an
 * event's first item when the statement claimed it, false for a repeat or an event seen before.
 */
export function claimsOf<T extends { claim: Claim }>(
  batch: T[],
): { unique: T[]; outcomes: (claimed: Array<{ consumer: string; event_id: string }>) => boolean[] } {
  const first = new Map<string, number>();
  batch.forEach((item, i) => {
    if (!first.has(keyOf(item.claim))) first.set(keyOf(item.claim), i);
  });
  return {
    unique: [...first.values()].map((i) => batch[i] as T),
    outcomes: (claimed) => {
      const now = new Set(claimed.map((c) => keyOf({ consumer: c.consumer, eventId: c.event_id })));
      return batch.map((item, i) => first.get(keyOf(item.claim)) === i && now.has(keyOf(item.claim)));
    },
  };
}
