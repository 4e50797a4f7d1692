import type { NatsConnection } from "@nats-io/nats-core";
import { RpcName, subjects, type Actor, type AuthorizeReply, type AuthorizeRequest, type Permission } from "@burnbox/contracts";
import { errors } from "./errors";
import { RpcError, rpcRequest } from "./nats";

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

/** How long a cached decision may live even if no invalidation arrives (a safety net, not the mechanism). */
const MAX_AGE_MS = 10_000;
const MAX_ENTRIES = 50_000;

/**
 * RBAC decisions of one process, so that a hot read does not ask tenancy on every request.
 *
 * Tenancy publishes `accessChanged` (core NATS, every replica) after every commit that emitted an
 * event, which every change of memberships, roles, teams and orgs does (they are all audited); each
 * cache then drops everything. The cache is used only while its subscription is known to be live:
 * from a disconnect until the server has confirmed the re-subscription, every request asks tenancy
 * and nothing is stored, because a broadcast missed meanwhile would otherwise leave a stale grant. A
 * decision asked before an invalidation and answered after it is not stored (the generation check).
 */
export class DecisionCache {
  private readonly entries = new Map<string, { reply: AuthorizeReply; at: number }>();
  private generation = 0;
  private live = false;

  constructor(
    private readonly nc: NatsConnection,
    namespace: string,
    private readonly now: () => number = Date.now,
  ) {
    nc.subscribe(subjects(namespace).accessChanged, { callback: () => this.invalidate() });
    void this.confirm();
    void this.watch();
  }

  private async confirm(): Promise<void> {
    const generation = this.generation;
    try {
      await this.nc.flush(); // the server has processed our SUB: broadcasts from now on reach us
      if (generation === this.generation) this.live = true;
    } catch {
      // closed or disconnected: the status watcher retries on reconnect
    }
  }

  private async watch(): Promise<void> {
    for await (const s of this.nc.status()) {
      if (s.type === "disconnect" || s.type === "reconnecting" || s.type === "close") {
        this.live = false;
        this.invalidate();
      } else if (s.type === "reconnect") {
        this.invalidate();
        void this.confirm();
      }
    }
  }

  /** Whether decisions are being kept (the invalidation subscription is confirmed live). */
  get active(): boolean {
    return this.live;
  }

  invalidate(): void {
    this.generation++;
    this.entries.clear();
  }

  async decide(req: AuthorizeRequest, ask: () => Promise<AuthorizeReply>): Promise<AuthorizeReply> {
    const key = cacheKey(req);
    const hit = this.live ? this.entries.get(key) : undefined;
    if (hit && this.now() - hit.at < MAX_AGE_MS) return hit.reply;
    const generation = this.generation;
    const reply = await ask();
    if (this.live && generation === this.generation) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
      this.entries.set(key, { reply, at: this.now() });
    }
    return reply;
  }
}

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
    cache = new DecisionCache(nc, namespace);
    caches.set(nc, cache);
  }
  return cache;
}

/** Tenancy's side: tells every replica of every service to forget its cached decisions. */
export function publishAccessChanged(nc: NatsConnection, namespace: string): void {
  nc.publish(subjects(namespace).accessChanged);
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
    reply = await cacheFor(nc, namespace).decide(req, () => rpcRequest(nc, namespace, RpcName.authorize, req));
  } catch (err) {
    if (err instanceof RpcError) throw errors.unavailable("authorization service unavailable");
    throw err;
  }
  assertAllowed(reply, what);
}
