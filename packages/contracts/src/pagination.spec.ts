import { PaginationQuery, toPage, pageWindow } from "./pagination";

describe("PaginationQuery", () => {
  it("when nothing is given, then page 1 of 20", () => {
    expect(PaginationQuery.parse({})).toEqual({ page: 1, per_page: 20 });
  });

  it.each([["0"], ["101"], ["-1"], ["1.5"], ["abc"]])("when per_page is %s, then it is refused, never clamped", (v) => {
    expect(PaginationQuery.safeParse({ per_page: v }).success).toBe(false);
  });

  it("when page is 0, then it is refused", () => {
    expect(PaginationQuery.safeParse({ page: "0" }).success).toBe(false);
  });

  it("when values are in range, then they are integers", () => {
    expect(PaginationQuery.parse({ page: "3", per_page: "100" })).toEqual({ page: 3, per_page: 100 });
  });
});

describe("toPage", () => {
  it("when 45 items exist at 20 per page, then 3 pages and the window skips 40 on page 3", () => {
    const q = { page: 3, per_page: 20 };
    expect(toPage(["a"], 45, q)).toEqual({ data: ["a"], total: 45, page: 3, per_page: 20, total_pages: 3 });
    expect(pageWindow(q)).toEqual({ skip: 40, take: 20 });
  });

  it("when nothing exists, then data is an empty array and total_pages 0", () => {
    expect(toPage([], 0, { page: 1, per_page: 20 })).toEqual({ data: [], total: 0, page: 1, per_page: 20, total_pages: 0 });
  });
});
