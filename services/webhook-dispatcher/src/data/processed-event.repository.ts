import { claimEvent } from "@burnbox/service-kit/messaging";
import type { Db, Tx } from "./prisma";

/** Which events each consumer has handled (the idempotency guard of every consumer). */
export class ProcessedEventRepository {
  constructor(private readonly db: Db | Tx) {}

  async seen(consumer: string, eventId: string): Promise<boolean> {
    return (await this.db.processedEvent.count({ where: { consumer, eventId } })) > 0;
  }

  /** False when `consumer` handled this event before; run it in the transaction of the handling. */
  claim(consumer: string, eventId: string): Promise<boolean> {
    return claimEvent(this.db, consumer, eventId);
  }
}
