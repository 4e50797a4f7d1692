import type { Client } from "./prisma";

/**
 * Demo inboxes created per client IP and window (POST /try/inbox). Platform data, not a
 * tenant's: the demo has no tenant, so these methods take the client IP instead of a scope.
 */
export class DemoQuotaRepository {
  constructor(private readonly db: Client) {}

  /**
   * Counts one creation for `ip` in the window starting at `windowStart`, unless `limit` is
   * already reached; true when counted. One statement, so concurrent requests on several
   * replicas never exceed the limit, and a refused request changes nothing.
   */
  async take(ip: string, windowStart: Date, limit: number): Promise<boolean> {
    const rows = await this.db.$queryRaw<Array<{ count: number }>>`
      INSERT INTO demo_quotas (ip, window_start, count) VALUES (${ip}, ${windowStart}, 1)
      ON CONFLICT (ip, window_start) DO UPDATE SET count = demo_quotas.count + 1
      WHERE demo_quotas.count < ${limit}
      RETURNING count`;
    return rows.length > 0;
  }

  /** Removes the windows that started before `before`; returns how many. */
  async prune(before: Date): Promise<number> {
    const { count } = await this.db.demoQuota.deleteMany({ where: { windowStart: { lt: before } } });
    return count;
  }
}
