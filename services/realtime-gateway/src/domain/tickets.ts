import { randomUUID } from "node:crypto";
import { Actor, WS_TICKET_TTL_SECONDS } from "@burnbox/contracts";
import type { Redis } from "@burnbox/service-kit";

const key = (prefix: string, ticket: string) => `${prefix}ws:ticket:${ticket}`;

/** A single-use ticket (30 s) that stands for the actor when a browser opens a WebSocket. */
export async function issueTicket(redis: Redis, prefix: string, actor: Actor): Promise<{ ticket: string; expires_in: number }> {
  const ticket = randomUUID();
  await redis.set(key(prefix, ticket), JSON.stringify(actor), "EX", WS_TICKET_TTL_SECONDS);
  return { ticket, expires_in: WS_TICKET_TTL_SECONDS };
}

/** Consumes a ticket atomically (GETDEL): a second use, or an expired ticket, gives null. */
export async function redeemTicket(redis: Redis, prefix: string, ticket: string): Promise<Actor | null> {
  if (!/^[0-9a-f-]{36}$/i.test(ticket)) return null;
  const raw = await redis.getdel(key(prefix, ticket));
  if (!raw) return null;
  const parsed = Actor.safeParse(JSON.parse(raw));
  return parsed.success ? parsed.data : null;
}
