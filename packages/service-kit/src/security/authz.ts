import type { NatsConnection } from "@nats-io/nats-core";
import { EventType, RpcName, type Actor, type AuthorizeReply, type AuthorizeRequest, type Permission } from "@burnbox/contracts";
import { BroadcastCache, type Change, type Invalidations } from "../messaging/broadcast-cache";
import { errors } from "../core/errors";
import { RpcError, rpcRequest } from "../messaging/nats";

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
 * Every change of memberships, roles, teams and orgs is tenancy's, and each commits with its audit
 * entry (and often a domain event); tenancy's unit of work broadcasts them, and each cache drops
 * everything on those (`ACCESS_CHANGES`). Decisions are kept only while the subscription is known
 * to be live (a broadcast missed meanwhile would otherwise leave a stale grant), and at most 10 s.
 */
export type DecisionCache = BroadcastCache<AuthorizeReply>;

/** Tenancy's audit actions (all of them: any may touch what a decision reads). */
const TENANCY_ACTIONS = /^(org|team|member|role|invite|domain|domain_assignment|setup|admin\.(mailer|storage)_config)[._]/;

/** The changes after which a kept decision may be wrong: tenancy's commits. */
export const ACCESS_CHANGES: Invalidations = {
  [EventType.auditRecorded]: (c: Change) => (TENANCY_ACTIONS.test(String((c.data as { action?: unknown } | null)?.action)) ? "all" : null),
  [EventType.memberAdded]: "all",
  [EventType.memberRemoved]: "all",
  [EventType.memberRoleChanged]: "all",
  [EventType.teamMemberAdded]: "all",
  [EventType.teamArchived]: "all",
  [EventType.teamRestored]: "all",
  [EventType.teamDeleted]: "all",
  [EventType.teamTransferred]: "all",
  [EventType.orgDeleted]: "all",
};

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
    cache = new BroadcastCache<AuthorizeReply>(nc, namespace, {
      invalidatedBy: ACCESS_CHANGES,
      maxAgeMs: 10_000,
      maxEntries: 50_000,
      onlyWhileSubscribed: true,
    });
    caches.set(nc, cache);
  }
  return cache;
}

/**
 * Whether `actor` holds `permission` (tenancy's decision, cached per process); throws the envelope
 * error if not, else returns the decision (with what it narrows, `own_only_assignments`).
 */
export async function authorize(
  nc: NatsConnection,
  namespace: string,
  req: { actor: Actor; org_id: string; team_id: string | null; permission: Permission },
  what = "resource",
): Promise<AuthorizeReply> {
  let reply: AuthorizeReply;
  try {
    reply = await cacheFor(nc, namespace).get(cacheKey(req), () => rpcRequest(nc, namespace, RpcName.authorize, req));
  } catch (err) {
    if (err instanceof RpcError) throw errors.unavailable("authorization service unavailable");
    throw err;
  }
  assertAllowed(reply, what);
  return reply;
}
