import { randomUUID } from "node:crypto";
import type { z } from "zod";
import { Actor, WS_TICKET_TTL_SECONDS, redisKeys, type WsTicket } from "@burnbox/contracts";
import type { Redis } from "@burnbox/service-kit/data";

export type IssuedTicket = z.infer<typeof WsTicket>;

const TICKET = /^[0-9a-f-]{36}$/i;

/**
 * Single-use WebSocket tickets in Redis (30 s). A ticket is issued to one user and stands for
 * them in one upgrade; its value is a random id, so whoever redeems it first is that user.
 */
export class WsTicketRepository {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private key(ticket: string): string {
    return redisKeys.wsTicket(this.prefix, ticket);
  }

  async issue(actor: Actor): Promise<IssuedTicket> {
    const ticket = randomUUID();
    await this.redis.set(this.key(ticket), JSON.stringify(actor), "EX", WS_TICKET_TTL_SECONDS);
    return { ticket, expires_in: WS_TICKET_TTL_SECONDS };
  }

  /** Consumes a ticket atomically (GETDEL): a second use, or an expired ticket, gives null. */
  async redeem(ticket: string): Promise<Actor | null> {
    if (!TICKET.test(ticket)) return null;
    const raw = await this.redis.getdel(this.key(ticket));
    if (!raw) return null;
    const parsed = Actor.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  }
}
