import type { Logger } from "./logger";

/** A transaction client that runs raw SQL (every service's Prisma transaction client). */
interface RawTx {
  $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number>;
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
  logger?: Logger;
  what?: string;
}): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await opts.batch(opts.size);
    total += n;
    if (n < opts.size) break;
  }
  if (opts.logger && total > 0) opts.logger.info({ removed: total, what: opts.what }, "tenant data removed");
  return total;
}
