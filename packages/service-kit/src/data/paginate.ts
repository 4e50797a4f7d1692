import { pageWindow, toPage, type Page, type PaginationQuery } from "@burnbox/contracts";

/**
 * One page of a list: the window and the total are read together, the rows mapped to their wire
 * shape. `rows` gets `{ skip, take }` (Prisma's names) for the requested page.
 *
 * The two reads are separate statements, so a row written between them could make the total and
 * the page disagree (a total of 1 beside an empty page). The page wins where it proves the total:
 * a short page that holds rows (or the first page) ends the list, so the total is exactly what
 * precedes it plus its rows; a full page means at least that many.
 */
export async function paginate<Row, Item>(
  query: PaginationQuery,
  source: {
    rows: (window: { skip: number; take: number }) => Promise<Row[]>;
    count: () => Promise<number>;
    map: (rows: Row[]) => Item[] | Promise<Item[]>;
  },
): Promise<Page<Item>> {
  const window = pageWindow(query);
  const [rows, counted] = await Promise.all([source.rows(window), source.count()]);
  return toPage(await source.map(rows), consistentTotal(window, rows.length, counted), query);
}

/** The total a page proves, or the counted one where the page proves only a lower bound. */
export function consistentTotal(window: { skip: number; take: number }, rowsOnPage: number, counted: number): number {
  const seen = window.skip + rowsOnPage;
  if (rowsOnPage < window.take && (rowsOnPage > 0 || window.skip === 0)) return seen;
  return rowsOnPage > 0 ? Math.max(counted, seen) : counted;
}

/**
 * One page of a list already held in memory (filtered here because another service holds the
 * field, e.g. a member's email): the window sliced, the total counted, the page mapped.
 */
export function paginateList<Row, Item>(query: PaginationQuery, rows: readonly Row[], map: (row: Row) => Item): Page<Item> {
  const { skip, take } = pageWindow(query);
  return toPage(rows.slice(skip, skip + take).map(map), rows.length, query);
}
