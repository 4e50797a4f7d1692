import { groupedStatement, type PoolSql } from "./pool-sql";

/** A pool stand-in (the writes below run no statement on it). */
const pool: PoolSql = <T>() => Promise.resolve([] as T[]);

describe("groupedStatement", () => {
  it("when items are asked for while a statement is in flight, then they go together in the next, on the pool", async () => {
    const batches: Array<{ sql: PoolSql; items: number[] }> = [];
    const one = groupedStatement<number, number>({
      sql: pool,
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
});
