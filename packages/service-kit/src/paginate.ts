import { pageWindow, toPage, type Page, type PaginationQuery } from "@burnbox/contracts";

/**
 * One page of a list: the window and the total are read together, the rows mapped to their wire
 * shape. `rows` gets `{ skip, take }` (Prisma's names) for the requested page.
 */
export async function paginate<Row, Item>(
  query: PaginationQuery,
  source: {
    rows: (window: { skip: number; take: number }) => Promise<Row[]>;
    count: () => Promise<number>;
    map: (rows: Row[]) => Item[] | Promise<Item[]>;
  },
): Promise<Page<Item>> {
  const [rows, total] = await Promise.all([source.rows(pageWindow(query)), source.count()]);
  return toPage(await source.map(rows), total, query);
}

/**
 * One page of a list already held in memory (filtered here because another service holds the
 * field, e.g. a member's email): the window sliced, the total counted, the page mapped.
 */
export function paginateList<Row, Item>(query: PaginationQuery, rows: readonly Row[], map: (row: Row) => Item): Page<Item> {
  const { skip, take } = pageWindow(query);
  return toPage(rows.slice(skip, skip + take).map(map), rows.length, query);
}
