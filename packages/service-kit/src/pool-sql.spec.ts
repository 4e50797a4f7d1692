import { groupedStatement, type PoolSql, type RawQueryClient } from "./pool-sql";

/** A pool stand-in (the writes below run no statement on it). */
const pool: PoolSql = <T>() => Promise.resolve([] as T[]);

describe("groupedStatement", () => {
  it("when there is a pool, then items asked for while a statement is in flight go together in the next, on the pool", async () => {
    const batches: Array<{ sql: PoolSql; items: number[] }> = [];
    const one = groupedStatement<number, number>({
      sql: pool,
      client: { $queryRaw: () => Promise.reject(new Error("not through the client")) },
      write: (sql, items) => {
        batches.push({ sql, items: [...items] });
        return Promise.resolve(items.map((x) => x * 10));
      },
      maxBatch: 8,
    });
    expect(await Promise.all([1, 2, 3].map(one))).toEqual([10, 20, 30]);
    expect(batches.map((b) => b.items)).toEqual([[1], [2, 3]]);
    expect(batches.every((b) => b.sql === pool)).toBe(true);
  });

  it("when there is no pool, then each item's statement runs alone through the client, and a refused item rejects", async () => {
    const ran: unknown[][] = [];
    const client: RawQueryClient = {
      $queryRaw: <T>(strings: TemplateStringsArray, ...values: unknown[]) => {
        ran.push([strings.join("?"), ...values]);
        return Promise.resolve([] as T);
      },
    };
    const one = groupedStatement<number, string>({
      sql: undefined,
      client,
      write: async (sql, items) => {
        await sql`SELECT ${items[0]}`;
        return items.map((x) => (x < 0 ? new Error(`refused ${x}`) : `ok ${x}`));
      },
      maxBatch: 8,
    });
    expect(await Promise.all([1, 2].map(one))).toEqual(["ok 1", "ok 2"]);
    await expect(one(-1)).rejects.toThrow("refused -1");
    expect(ran).toEqual([
      ["SELECT ?", 1],
      ["SELECT ?", 2],
      ["SELECT ?", -1],
    ]);
  });
});
