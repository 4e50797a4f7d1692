/**
 * Following tenancy's removals and moves of orgs and teams in a service that holds tenant data
 * (inbox, webhook-dispatcher, identity): the removed-tenant record and lock, batched removal, the
 * three consumers and the synchronous team move. Built on the service kit, kept out of it: the kit
 * is infrastructure, this is a process three services share.
 */
import { EventType, type RpcName } from "@burnbox/contracts";
import type { NatsConnection } from "@nats-io/nats-core";
import type { OrgScope, TeamScope, UnitOfWork } from "@burnbox/service-kit/data";
import { serveRpc, startConsumer, type RunningConsumer } from "@burnbox/service-kit/messaging";
import type { Logger } from "@burnbox/service-kit/runtime";

/** A transaction client that runs raw SQL (every service's Prisma transaction client). */
interface RawTx {
  $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number>;
}

/** What `RemovedTenantRepository` runs on: any service's Prisma client or transaction client. */
export interface RemovedTenantsClient extends RawTx {
  $executeRaw(query: TemplateStringsArray, ...values: unknown[]): PromiseLike<number>;
  $queryRaw<T = unknown>(query: TemplateStringsArray, ...values: unknown[]): PromiseLike<T>;
}

/** An org or team tenancy deleted (`org.deleted`, `team.deleted`). */
export type RemovedTenant = { kind: "org"; scope: OrgScope } | { kind: "team"; scope: TeamScope };

/** One delivery of a removal, as the consumers hand it to a service's use case. */
export interface TenantRemoval {
  consumer: string;
  eventId: string;
  tenant: RemovedTenant;
}

/** One delivery of `team.transferred`, as the consumer hands it to a service's use case. */
export interface TeamTransfer {
  consumer: string;
  eventId: string;
  teamId: string;
  fromOrgId: string;
  toOrgId: string;
}

/**
 * Serializes writes that add tenant data with the removal of that tenant (`org.deleted`,
 * `team.deleted`, `team.transferred`): a create takes the locks of its org and team `shared`, the
 * consumer that removes or moves a tenant takes its lock `exclusive` while it records the removal.
 * A create that was in flight then commits first (and its row is removed or moved with the rest);
 * a create after it sees the removal. Transaction-scoped advisory locks, taken in a fixed order.
 */
export async function lockTenants(tx: RawTx, ids: ReadonlyArray<string>, mode: "shared" | "exclusive"): Promise<void> {
  const fn = mode === "shared" ? "pg_advisory_xact_lock_shared" : "pg_advisory_xact_lock";
  for (const id of [...new Set(ids)].sort()) await tx.$executeRawUnsafe(`SELECT ${fn}(hashtextextended($1, 0))`, `tenant:${id}`);
}

/**
 * Runs `batch` (one transaction removing at most `size` rows, answering how many) until a batch
 * comes back short: a large team never holds one huge transaction, and a crash part-way leaves the
 * rest for the redelivered event, which removes what is left.
 */
export async function removeInBatches(opts: {
  size: number;
  batch: (size: number) => Promise<number>;
  /** Stop only on an empty batch (a batch that spans several tables may come back short early). */
  untilEmpty?: boolean;
  logger?: Logger;
  what?: string;
}): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await opts.batch(opts.size);
    total += n;
    if (opts.untilEmpty ? n === 0 : n < opts.size) break;
  }
  if (opts.logger && total > 0) opts.logger.info({ removed: total, what: opts.what }, "tenant data removed");
  return total;
}

/**
 * The `removed_tenants` table every service holding tenant data keeps (orgs and teams tenancy
 * removed), and the locks that order creates with their removal (`lockTenants`). Raw statements,
 * so one implementation serves every service's client. Run the methods inside a transaction: the
 * locks last until it ends.
 */
export class RemovedTenantRepository {
  constructor(private readonly db: RemovedTenantsClient) {}

  /** At create: waits for a removal in progress of the org or team; true when either is removed. */
  async lockForCreate(scope: TeamScope): Promise<boolean> {
    await lockTenants(this.db, [scope.orgId, scope.teamId], "shared");
    const rows = await this.db.$queryRaw<{ removed: boolean }[]>`
      SELECT EXISTS (SELECT 1 FROM removed_tenants WHERE id IN (${scope.orgId}::uuid, ${scope.teamId}::uuid)) AS removed`;
    return rows[0]?.removed === true;
  }

  /** Records the removal of an org or team, after every create in flight for it has committed. */
  async markRemoved(tenant: RemovedTenant): Promise<void> {
    const id = tenant.kind === "org" ? tenant.scope.orgId : tenant.scope.teamId;
    await lockTenants(this.db, [id], "exclusive");
    await this.db.$executeRaw`INSERT INTO removed_tenants (id, kind) VALUES (${id}::uuid, ${tenant.kind}) ON CONFLICT DO NOTHING`;
  }

  /** Waits until no create of the team is in flight (for a move to another org). */
  async lockTeam(scope: TeamScope): Promise<void> {
    await lockTenants(this.db, [scope.teamId], "exclusive");
  }
}

/** The repositories the tenant use cases below need from a service. */
export interface TenantRemovalRepos {
  processedEvents: {
    seen(consumer: string, eventId: string): Promise<boolean>;
    claim(consumer: string, eventId: string): Promise<boolean>;
  };
  tenants: Pick<RemovedTenantRepository, "markRemoved" | "lockTeam">;
}

/**
 * The skeleton of a service's removal use case, once per event: a delivery already handled does
 * nothing; the removal is recorded first (with `atMark` in the same transaction), so a create in
 * flight commits before it and a later one is refused; then `removeAll` deletes the tenant's data
 * (in batches: a redelivered event removes what is left); once done, the event is recorded as handled.
 */
export async function removeTenantOnce<Repos extends TenantRemovalRepos>(
  data: UnitOfWork<Repos>,
  input: TenantRemoval,
  steps: { atMark?: (repos: Repos) => Promise<unknown>; removeAll: () => Promise<unknown> },
): Promise<void> {
  const { consumer, eventId, tenant } = input;
  if (await data.repos.processedEvents.seen(consumer, eventId)) return;
  await data.write(async (repos) => {
    await repos.tenants.markRemoved(tenant);
    await steps.atMark?.(repos);
  });
  await steps.removeAll();
  await data.write(async (repos) => {
    await repos.processedEvents.claim(consumer, eventId);
  });
}

/**
 * The skeleton of a service's `team.transferred` use case: in one transaction, once per event,
 * after any create of the team in flight has committed, `move` re-files the team's rows under the
 * new org.
 */
export async function moveTeamOnce<Repos extends TenantRemovalRepos>(
  data: UnitOfWork<Repos>,
  input: TeamTransfer,
  move: (repos: Repos, scope: TeamScope, toOrgId: string) => Promise<unknown>,
): Promise<void> {
  await data.write(async (repos) => {
    if (!(await repos.processedEvents.claim(input.consumer, input.eventId))) return;
    const scope = { orgId: input.fromOrgId, teamId: input.teamId };
    await repos.tenants.lockTeam(scope);
    await move(repos, scope, input.toOrgId);
  });
}

/**
 * Tenancy's removals and moves for a service holding tenant data: one durable consumer each
 * (`<durablePrefix>-org-deleted`, `-team-deleted`, `-team-transferred`; shared by replicas),
 * idempotent on the event id in the service's use cases.
 */
export async function startTenantEventConsumers(opts: {
  nc: NatsConnection;
  namespace: string;
  durablePrefix: string;
  logger: Logger;
  onRemoved: (input: TenantRemoval) => Promise<void>;
  onTransferred: (input: TeamTransfer) => Promise<void>;
}): Promise<RunningConsumer[]> {
  const { nc, namespace, logger } = opts;
  const orgDeleted = `${opts.durablePrefix}-org-deleted`;
  const teamDeleted = `${opts.durablePrefix}-team-deleted`;
  const teamTransferred = `${opts.durablePrefix}-team-transferred`;
  // a large org takes a while: the server must not redeliver it to another replica meanwhile
  const ackWaitMs = 5 * 60_000;
  return Promise.all([
    startConsumer({
      nc,
      namespace,
      durable: orgDeleted,
      eventType: EventType.orgDeleted,
      logger,
      ackWaitMs,
      concurrency: 2,
      handler: (event) =>
        opts.onRemoved({ consumer: orgDeleted, eventId: event.id, tenant: { kind: "org", scope: { orgId: event.data.org_id } } }),
    }),
    startConsumer({
      nc,
      namespace,
      durable: teamDeleted,
      eventType: EventType.teamDeleted,
      logger,
      ackWaitMs,
      concurrency: 2,
      handler: async (event) => {
        if (!event.org_id) throw new Error("team.deleted without its org");
        await opts.onRemoved({
          consumer: teamDeleted,
          eventId: event.id,
          tenant: { kind: "team", scope: { orgId: event.org_id, teamId: event.data.team_id } },
        });
      },
    }),
    startConsumer({
      nc,
      namespace,
      durable: teamTransferred,
      eventType: EventType.teamTransferred,
      logger,
      handler: (event) =>
        opts.onTransferred({
          consumer: teamTransferred,
          eventId: event.id,
          teamId: event.data.team_id,
          fromOrgId: event.data.from_org_id,
          toOrgId: event.data.to_org_id,
        }),
    }),
  ]);
}

/**
 * Tenancy's awaited request to move a transferred team now (read your writes), for a service whose
 * `startTenantEventConsumers` uses `durablePrefix`: the move is claimed under the event's id and
 * the same consumer name as the `team.transferred` consumer's, so whichever comes second is a no-op.
 */
export function serveTeamMove(opts: {
  nc: NatsConnection;
  namespace: string;
  durablePrefix: string;
  rpc: typeof RpcName.moveTeamApiKeys | typeof RpcName.moveTeamInboxes | typeof RpcName.moveTeamWebhooks;
  logger: Logger;
  onTransferred: (input: TeamTransfer) => Promise<void>;
}): { stop(): Promise<void> } {
  return serveRpc(
    opts.nc,
    opts.namespace,
    opts.rpc,
    async (req) => {
      await opts.onTransferred({
        consumer: `${opts.durablePrefix}-team-transferred`,
        eventId: req.event_id,
        teamId: req.team_id,
        fromOrgId: req.from_org_id,
        toOrgId: req.to_org_id,
      });
      return {};
    },
    opts.logger,
  );
}
