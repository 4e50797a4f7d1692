import { Actor, redisKeys } from "@burnbox/contracts";
import type { IdentityDeps } from "../deps";

const TICKET = /^[0-9a-f-]{36}$/i;

/**
 * Consumes a WebSocket ticket (POST /ws/ticket, realtime-gateway's, in the shared Redis) and
 * answers its user: tickets taken with an API key never link.
 */
export async function redeemWsTicket(deps: IdentityDeps, ticket: string): Promise<string | null> {
  if (!deps.redis || !TICKET.test(ticket)) return null;
  const raw = await deps.redis.getdel(redisKeys.wsTicket(deps.config.redis.key_prefix, ticket));
  if (!raw) return null;
  const parsed = Actor.safeParse(JSON.parse(raw));
  return parsed.success && !parsed.data.api_key ? parsed.data.user_id : null;
}
