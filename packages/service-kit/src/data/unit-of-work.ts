import type { DomainEvent, EventOf, EventType } from "@burnbox/contracts";
import type { NatsConnection } from "@nats-io/nats-core";
import { eventChange, publishChanges, type Change, type ChangeLog } from "../messaging/broadcast-cache";
import { auditEvent, newEvent, outboxRow, type OutboxRelay, type OutboxRow } from "../messaging/outbox";

/**
 * The part of a transaction client the unit of work writes to the outbox table with: a raw
 * statement (Prisma's `$executeRaw`), one per transaction whatever the number of events. Raw
 * because every write of every service runs it, and the ORM's query compiler cost more than it.
 */
export interface OutboxWriter {
  $executeRaw(query: TemplateStringsArray, ...values: unknown[]): PromiseLike<number>;
}

/** Inserts the rows in one statement (arrays of ids, subjects and JSON payloads, unnested). */
async function insertOutboxRows(tx: OutboxWriter, rows: OutboxRow[]): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO outbox_events (id, subject, payload)
    SELECT * FROM unnest(${rows.map((r) => r.id)}::uuid[], ${rows.map((r) => r.subject)}::text[], ${rows.map((r) => JSON.stringify(r.payload))}::jsonb[])`;
}

/** Who did it, for the audit entry: a use case passes its `ctx` as is. */
export interface AuditActor {
  actor: { user_id: string; email?: string; api_key: { id: string } | null } | null;
  ip?: string | null;
  userAgent?: string;
}

export interface AuditEntry {
  ctx: AuditActor | null;
  action: string;
  org_id: string | null;
  team_id?: string | null;
  /** `name`: the record's human name (inbox address, key or team name, webhook URL, email subject). */
  target: { type: string; id: string | null; name?: string | null };
  metadata?: Record<string, unknown>;
  /** Only for actions above `info`; otherwise the audit log derives it from the action. */
  severity?: "info" | "warning" | "critical";
}

/** What a change emits, collected while it runs and written to the outbox in its transaction. */
export interface ChangeEvents {
  /** A domain event; returned so the caller can use its id. */
  event<T extends EventType>(type: T, fields: { org_id: string | null; team_id: string | null; data: EventOf<T>["data"] }): EventOf<T>;
  /** An `audit.recorded` event. */
  audit(entry: AuditEntry): void;
}

/**
 * A hot-path repository: its statements run straight on the process's pool (PoolSql, group
 * commits), never inside a transaction. A service's pool-only repositories extend it and live in
 * the unit of work's `hot` set; the type keeps them out of `repos`, the set `write()` binds to
 * its transaction (createUnitOfWork refuses a `repositories` that returns one).
 */
export abstract class HotRepository {
  /** Nominal: only a subclass is a HotRepository. */
  protected readonly poolOnly = true as const;
}

/** `Repos` with every hot repository turned into `never`: a `repos` that holds one does not type-check. */
export type TransactionalRepos<Repos> = { [K in keyof Repos]: Repos[K] extends HotRepository ? never : Repos[K] };

export interface UnitOfWork<Repos, Hot = unknown> {
  /** Repositories on the plain connection, for reads and single-statement writes without events. */
  readonly repos: Repos;
  /**
   * The pool-only hot-path repositories (`HotRepository`): one per process, outside any
   * transaction. `write()` hands its change `repos` bound to the transaction, never these: a
   * statement that must commit with the change belongs in a `repos` repository.
   */
  readonly hot: Hot;
  /**
   * Runs `change` in one transaction with repositories bound to it; the events and audit entries
   * it records are written to the outbox in the same transaction, and after commit the relay
   * publishes those rows at once (`publishCommitted`). A change that throws writes nothing.
   * With `changes`, what the commit changed (its events and the changes its repositories recorded)
   * is broadcast to every cache of every replica before `write` returns (see `publishChanges`).
   */
  write<T>(change: (repos: Repos, events: ChangeEvents) => Promise<T>): Promise<T>;
}

/**
 * Builds a service's unit of work. `transaction` is the client's interactive transaction
 * (`(fn) => db.$transaction(fn)`); `repositories` binds every repository to a client or a
 * transaction, so use cases never see the database client itself.
 */
export function createUnitOfWork<
  Client,
  Tx extends OutboxWriter,
  Repos extends TransactionalRepos<Repos>,
  Hot = Record<string, never>,
>(opts: {
  client: Client;
  transaction: <T>(fn: (tx: Tx) => Promise<T>) => Promise<T>;
  /**
   * Binds the repositories; inside `write()` they get the transaction's `ChangeLog`, where a
   * write that commits no event records what it changed for the caches (none on the plain client).
   */
  repositories: (db: Client | Tx, changes?: ChangeLog) => Repos;
  /** The service's pool-only repositories (`hotRepositories(sql)` in its data/repositories.ts). */
  hot?: Hot;
  relay: OutboxRelay;
  namespace: string;
  /**
   * Where the commits' changes are broadcast (the process's NATS connection): every cache that
   * registered an event type or change subject (`BroadcastCache`'s `invalidatedBy`) on every
   * replica drops what the commit names, and `write` returns after the server has the broadcast.
   */
  changes?: { nc: NatsConnection };
  /**
   * Brings up to date, from what a commit changed, a store this service keeps for other services
   * to read (identity: the API key states in Redis that the gateways read); awaited after the
   * commit and before the broadcast, so a cache that drops on the change then reads the new state.
   * Should it throw, the broadcast still goes and `write` throws (the change stays committed).
   */
  refreshShared?: (changes: readonly Change[]) => Promise<void>;
}): UnitOfWork<Repos, Hot> {
  return {
    repos: opts.repositories(opts.client),
    hot: opts.hot ?? ({} as Hot),
    async write(change) {
      let rows: OutboxRow[] = [];
      let committed: DomainEvent[] = [];
      const recorded: Change[] = [];
      const log: ChangeLog = { record: (c) => void recorded.push(c) };
      const result = await opts.transaction(async (tx) => {
        const pending: DomainEvent[] = [];
        const events: ChangeEvents = {
          event: (type, fields) => {
            const e = newEvent(type, fields);
            pending.push(e);
            return e;
          },
          audit: (entry) => {
            pending.push(
              auditEvent({
                action: entry.action,
                actor: entry.ctx?.actor ?? null,
                org_id: entry.org_id,
                team_id: entry.team_id ?? null,
                target_type: entry.target.type,
                target_id: entry.target.id,
                ip: entry.ctx?.ip ?? null,
                ...(entry.metadata ? { metadata: entry.metadata } : {}),
                ...(entry.ctx?.userAgent ? { user_agent: entry.ctx.userAgent } : {}),
                ...(entry.target.name ? { target_name: entry.target.name } : {}),
                ...(entry.severity ? { severity: entry.severity } : {}),
              }),
            );
          },
        };
        const value = await change(opts.repositories(tx, log), events);
        rows = pending.map((e) => outboxRow(opts.namespace, e));
        committed = pending;
        if (rows.length > 0) await insertOutboxRows(tx, rows);
        return value;
      });
      if (rows.length > 0) opts.relay.publishCommitted(rows);
      if (committed.length === 0 && recorded.length === 0) return result;
      const changes = [...committed.map(eventChange), ...recorded];
      let failure: { err: unknown } | undefined;
      try {
        await opts.refreshShared?.(changes);
      } catch (err) {
        failure = { err };
      }
      if (opts.changes) await publishChanges(opts.changes.nc, opts.namespace, changes);
      if (failure) throw failure.err;
      return result;
    },
  };
}
