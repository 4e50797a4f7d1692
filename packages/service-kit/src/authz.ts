import type { NatsConnection } from "@nats-io/nats-core";
import { RpcName, subjects, type Actor, type AuthorizeReply, type AuthorizeRequest, type Permission } from "@burnbox/contracts";
import { BroadcastCache } from "./broadcast-cache";
import { errors } from "./errors";
import { RpcError, broadcastNow, rpcRequest } from "./nats";

/**
 * Turns an RBAC decision into the client's answer: 404 when the caller may not even know the
 * org or team exists (or is not in it), 403 when it may see it but lacks the permission, 409
 * when the team is archived and the permission would change it.
 */
export function assertAllowed(reply: AuthorizeReply, what = "resource"): void {
  if (reply.allowed) return;
  if (reply.reason === "missing_permission") throw errors.forbidden("insufficient permissions");
  // an archived team is read-only (contract notes): a change to it is a conflict, not a 404
  if (reply.reason === "team_archived") throw errors.conflict("team is archived");
  throw errors.notFound(what);
}

/**
 * RBAC decisions of one process, so that a hot read does not ask tenancy on every request.
 *
 * Tenancy publishes `accessChanged` (core NATS, every replica) after every commit that emitted an
 * event, which every change of memberships, roles, teams and orgs does (they are all audited); each
 * cache then drops everything. Decisions are kept only while the subscription is known to be live
 * (a broadcast missed meanwhile would otherwise leave a stale grant), and at most 10 s.
 */
export type DecisionCache = BroadcastCache<AuthorizeReply>;

/** Everything of the request the decision depends on: the actor's standing and key scopes, never its session. */
function cacheKey(req: AuthorizeRequest): string {
  const a = req.actor;
  const key = a.api_key ? `${a.api_key.id}:${a.api_key.team_id}:${a.api_key.scopes.join(",")}` : "-";
  return `${a.user_id}|${a.is_system_admin ? 1 : 0}|${key}|${req.org_id}|${req.team_id ?? "-"}|${req.permission}`;
}

const caches = new WeakMap<NatsConnection, DecisionCache>();

/** The process-wide decision cache of one NATS connection (created on first use). */
export function cacheFor(nc: NatsConnection, namespace: string): DecisionCache {
  let cache = caches.get(nc);
  if (!cache) {
    cache = new BroadcastCache<AuthorizeReply>(nc, subjects(namespace).accessChanged, {
      maxAgeMs: 10_000,
      maxEntries: 50_000,
      onlyWhileSubscribed: true,
    });
    caches.set(nc, cache);
  }
  return cache;
}

/**
 * Tenancy's side: tells every replica of every service to forget its cached decisions, and waits
 * until the server has the broadcast, so it is ahead of the change's answer (read your writes).
 */
export function publishAccessChanged(nc: NatsConnection, namespace: string): Promise<void> {
  return broadcastNow(nc, subjects(namespace).accessChanged);
}

/** Whether `actor` holds `permission` (tenancy's decision, cached per process); throws the envelope error if not. */
export async function authorize(
  nc: NatsConnection,
  namespace: string,
  req: { actor: Actor; org_id: string; team_id: string | null; permission: Permission },
  what = "resource",
): Promise<void> {
  let reply: AuthorizeReply;
  try {
    reply = await cacheFor(nc, namespace).get(cacheKey(req), () => rpcRequest(nc, namespace, RpcName.authorize, req));
  } catch (err) {
    if (err instanceof RpcError) throw errors.unavailable("authorization service unavailable");
    throw err;
  }
  assertAllowed(reply, what);
}
