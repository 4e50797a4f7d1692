import { SessionCache } from "./session-cache";

describe("a session's cache of the messages it read", () => {
  it("when the budget is passed, then the least recently used go first", () => {
    const c = new SessionCache<string>(10);
    c.set("a", "A", 4);
    c.set("b", "B", 4);
    expect(c.get("a")).toBe("A");
    c.set("c", "C", 4);
    expect(c.get("b")).toBeUndefined();
    expect([c.get("a"), c.get("c")]).toEqual(["A", "C"]);
    expect(c.bytes).toBe(8);
  });

  it("when a value is bigger than the whole budget, then it is not kept and nothing is dropped for it", () => {
    const c = new SessionCache<string>(10);
    c.set("a", "A", 4);
    c.set("big", "BIG", 11);
    expect(c.get("big")).toBeUndefined();
    expect(c.get("a")).toBe("A");
  });

  it("when a key is set again or deleted, then its bytes are counted once or not at all", () => {
    const c = new SessionCache<string>(10);
    c.set("a", "A", 4);
    c.set("a", "A2", 6);
    expect(c.bytes).toBe(6);
    c.delete("a");
    expect(c.bytes).toBe(0);
    expect(c.get("a")).toBeUndefined();
  });
});
