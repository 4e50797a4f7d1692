import { claimEvent } from "@burnbox/service-kit/messaging";
import type { Client } from "./prisma";

/** The events each consumer has already handled (idempotency on the event id). */
export class ProcessedEventRepository {
  constructor(private readonly db: Client) {}

  /** False when `consumer` has seen `eventId` before; run it in the transaction of the change. */
  claim(consumer: string, eventId: string): Promise<boolean> {
    return claimEvent(this.db, consumer, eventId);
  }
}
