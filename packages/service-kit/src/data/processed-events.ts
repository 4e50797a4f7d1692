/**
 * The idempotency record of every consumer (`processed_events`, in every database service's
 * schema): an event id is claimed once per consumer, inside the transaction of its handling, so a
 * redelivered event changes nothing.
 */

/** The raw statements a Prisma client or transaction offers (a pg pool can be wrapped to it). */
export interface RawSql {
  $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number>;
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T>;
}

/** Run inside the handler's own transaction: false when `consumer` handled `eventId` before. */
export async function claimEvent(tx: Pick<RawSql, "$executeRawUnsafe">, consumer: string, eventId: string): Promise<boolean> {
  const inserted = await tx.$executeRawUnsafe(
    "INSERT INTO processed_events (consumer, event_id) VALUES ($1, $2::uuid) ON CONFLICT DO NOTHING",
    consumer,
    eventId,
  );
  return inserted === 1;
}

/** The events each consumer has handled: `repositories(db).processedEvents` in every database service. */
export class ProcessedEventRepository {
  constructor(private readonly db: RawSql) {}

  /** Whether `consumer` handled `eventId` already (a read outside the handling's transaction, to skip early). */
  async seen(consumer: string, eventId: string): Promise<boolean> {
    const rows = await this.db.$queryRawUnsafe<Array<{ seen: boolean }>>(
      "SELECT EXISTS (SELECT 1 FROM processed_events WHERE consumer = $1 AND event_id = $2::uuid) AS seen",
      consumer,
      eventId,
    );
    return rows[0]?.seen === true;
  }

  /** False when `consumer` handled this event before; run it in the transaction of the handling. */
  claim(consumer: string, eventId: string): Promise<boolean> {
    return claimEvent(this.db, consumer, eventId);
  }
}

/** The claim of one event for one consumer, as a batch statement's item carries it. */
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
