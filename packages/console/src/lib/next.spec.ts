import { safeNext } from "./next";

describe("where a sign-in goes next", () => {
  it.each([
    ["/account", "/account"],
    ["/invites/abc?x=1#y", "/invites/abc?x=1#y"],
    [null, "/"],
    ["", "/"],
    ["//evil.example/", "/"],
    ["/\\evil.example", "/"],
    ["https://evil.example/", "/"],
    ["javascript:alert(1)", "/"],
  ])("when ?next= is %p, then the console goes to %p", (next, to) => {
    expect(safeNext(next)).toBe(to);
  });
});
