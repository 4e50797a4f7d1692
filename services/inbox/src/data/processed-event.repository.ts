import { claimEvent } from "@burnbox/service-kit/messaging";
import type { Client } from "./prisma";

/** The events a consumer has handled (idempotency on the event id). */
export class ProcessedEventRepository {
  constructor(private readonly db: Client) {}

  async seen(consumer: string, eventId: string): Promise<boolean> {
    return (await this.db.processedEvent.count({ where: { consumer, eventId } })) > 0;
  }

  /** Inside the handler's transaction: false when the event was handled before. */
  claim(consumer: string, eventId: string): Promise<boolean> {
    return claimEvent(this.db, consumer, eventId);
  }
}
