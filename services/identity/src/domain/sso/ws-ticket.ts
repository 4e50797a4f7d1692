import { Actor } from "@burnbox/contracts";
import type { IdentityDeps } from "../deps";

const TICKET = /^[0-9a-f-]{36}$/i;

/**
 * Consumes a WebSocket ticket (POST /ws/ticket, realtime-gateway's, in the shared Redis) and
 * answers its user: tickets taken with an API key never link. The key's shape is
 * realtime-gateway's `ws:ticket:<id>` (to move into the contracts' redisKeys).
 */
export async function redeemWsTicket(deps: IdentityDeps, ticket: string): Promise<string | null> {
  if (!deps.redis || !TICKET.test(ticket)) return null;
  const raw = await deps.redis.getdel(`${deps.config.redis.key_prefix}ws:ticket:${ticket}`);
  if (!raw) return null;
  const parsed = Actor.safeParse(JSON.parse(raw));
  return parsed.success && !parsed.data.api_key ? parsed.data.user_id : null;
}
