import { testDatabaseUrl } from "@burnbox/test-kit";
import { createPool, poolSql } from "../src/data";

describe("poolSql on real Postgres", () => {
  const pool = createPool(testDatabaseUrl("postgres"), 2);
  const sql = poolSql(pool);
  afterAll(() => pool.end());

  it("when values are interpolated, then they are bound as parameters, so text that looks like SQL stays text", async () => {
    const name = "x'); DROP TABLE pg_class; --";
    const at = new Date("2026-11-23T10:00:00.000Z");
    const [row] = await sql<{
      name: string;
      at: Date;
      tags: string[];
    }>`SELECT ${name}::text AS name, ${at}::timestamptz AS at, ${["a", "b"]}::text[] AS tags`;
    expect(row).toEqual({ name, at, tags: ["a", "b"] });
  });

  it("when one template runs many times on every connection, then each run gets its own values", async () => {
    const count = (n: number) => sql<{ n: string }>`SELECT count(*) AS n FROM generate_series(1, ${n}::int)`;
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => count(i + 1)));
    expect(results.map((r) => Number(r[0]?.n))).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });

  it("when two templates differ only in their values' places, then each keeps its own statement", async () => {
    const a = (x: number) => sql<{ v: string }>`SELECT 'a' || ${x}::text AS v`;
    const b = (x: number) => sql<{ v: string }>`SELECT 'b' || ${x}::text AS v`;
    expect(await Promise.all([a(1), b(2), a(3)])).toEqual([[{ v: "a1" }], [{ v: "b2" }], [{ v: "a3" }]]);
  });

  it("when a statement fails, then the promise rejects with Postgres's error and the pool stays usable", async () => {
    await expect(sql`SELECT 1 / ${0}::int`).rejects.toThrow(/division by zero/);
    expect(await sql<{ one: number }>`SELECT ${1}::int AS one`).toEqual([{ one: 1 }]);
  });
});
