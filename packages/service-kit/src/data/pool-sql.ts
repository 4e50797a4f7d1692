import { createHash } from "node:crypto";
import type { PgPool } from "./db";
import { startGroupCommit, type BatchWrite, type GroupCommit } from "./group-commit";

/**
 * A statement on the service's pg pool written as a tagged template, like Prisma's `$queryRaw`:
 * every `${value}` becomes a bind parameter (`$1`, `$2`, ...), never text of the statement.
 * For the hot single statements (one per message or event), where Prisma's runtime cost more than
 * the statement: each template is a named prepared statement, so a connection parses and plans it
 * once. A single statement is atomic on its own, so these need no transaction; work that must be
 * one transaction with other statements stays in the unit of work.
 * Results are node-postgres's: int8/numeric come back as strings, timestamps as Dates.
 */
export interface PoolSql {
  <T = Record<string, unknown>>(strings: TemplateStringsArray, ...values: unknown[]): Promise<T[]>;
}

export function poolSql(pool: PgPool): PoolSql {
  const statements = new WeakMap<TemplateStringsArray, { name: string; text: string }>();
  return async <T>(strings: TemplateStringsArray, ...values: unknown[]): Promise<T[]> => {
    let statement = statements.get(strings);
    if (!statement) {
      const text = strings.reduce((sql, part, i) => `${sql}$${i}${part}`);
      statement = { name: `bb_${createHash("sha256").update(text).digest("hex").slice(0, 24)}`, text };
      statements.set(strings, statement);
    }
    const result = await pool.query<T & Record<string, unknown>>({ ...statement, values });
    return result.rows;
  };
}

/**
 * A hot single statement for one item at a time, written for a batch (`write(sql, items)`, one
 * outcome per item): the items asked for while a statement is in flight go together in the next
 * one on the pool (`startGroupCommit`, made on first use). Only for a hot repository (pool-only,
 * `HotRepository`): a statement that must commit with a change belongs in the unit of work.
 */
export function groupedStatement<T, R>(opts: {
  sql: PoolSql;
  write: (sql: PoolSql, batch: T[]) => ReturnType<BatchWrite<T, R>>;
  maxBatch: number;
  /** How long a first item waits for others (`startGroupCommit`'s `lingerMs`): only for writes nobody waits on. */
  lingerMs?: number;
}): (item: T) => Promise<R> {
  const { sql, write } = opts;
  let grouped: GroupCommit<T, R> | undefined;
  return (item) => {
    grouped ??= startGroupCommit({
      write: (batch) => write(sql, batch),
      maxBatch: opts.maxBatch,
      ...(opts.lingerMs ? { lingerMs: opts.lingerMs } : {}),
    });
    return grouped.submit(item);
  };
}
