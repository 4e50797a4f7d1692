import { consistentTotal, paginate, paginateList } from "./paginate";

describe("paginate", () => {
  it("when a page is asked, then the window goes to the source and the envelope carries the total", async () => {
    const windows: Array<{ skip: number; take: number }> = [];
    const page = await paginate(
      { page: 2, per_page: 2 },
      {
        rows: async (w) => {
          windows.push(w);
          return ["c", "d"];
        },
        count: async () => 5,
        map: (rows) => rows.map((r) => r.toUpperCase()),
      },
    );
    expect(windows).toEqual([{ skip: 2, take: 2 }]);
    expect(page).toEqual({ data: ["C", "D"], total: 5, page: 2, per_page: 2, total_pages: 3 });
  });

  it("when the list is held in memory, then the same window is sliced and mapped, and a page past the end is empty", () => {
    const rows = [1, 2, 3, 4, 5];
    expect(paginateList({ page: 3, per_page: 2 }, rows, (n) => n * 10)).toEqual({
      data: [50],
      total: 5,
      page: 3,
      per_page: 2,
      total_pages: 3,
    });
    expect(paginateList({ page: 4, per_page: 2 }, rows, (n) => n)).toEqual({ data: [], total: 5, page: 4, per_page: 2, total_pages: 3 });
  });

  it("when a row lands between the page read and the count, then the total never disagrees with the page", async () => {
    // the count saw a row the page read did not (or the reverse): the page proves the total
    const page = await paginate({ page: 1, per_page: 20 }, { rows: async () => [], count: async () => 1, map: (r) => r });
    expect(page).toEqual({ data: [], total: 0, page: 1, per_page: 20, total_pages: 0 });
    expect(consistentTotal({ skip: 0, take: 20 }, 3, 2)).toBe(3);
    expect(consistentTotal({ skip: 20, take: 20 }, 5, 40)).toBe(25);
    // a full page proves only a lower bound; an empty page past the first proves nothing
    expect(consistentTotal({ skip: 0, take: 2 }, 2, 1)).toBe(2);
    expect(consistentTotal({ skip: 0, take: 2 }, 2, 9)).toBe(9);
    expect(consistentTotal({ skip: 40, take: 20 }, 0, 7)).toBe(7);
  });
});
