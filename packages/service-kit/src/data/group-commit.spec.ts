import { startGroupCommit, type BatchWrite } from "./group-commit";

/** A write whose calls the test completes by hand, recording each batch it was given. */
function manualWrite(outcome: (item: string) => Error | null = () => null) {
  const batches: string[][] = [];
  const waiting: Array<{ fail(err: Error): void; commit(): void }> = [];
  const write: BatchWrite<string> = (batch) =>
    new Promise((resolve, reject) => {
      batches.push([...batch]);
      waiting.push({ fail: reject, commit: () => resolve(batch.map(outcome)) });
    });
  const next = () => {
    const w = waiting.shift();
    if (!w) throw new Error("no write in flight");
    return w;
  };
  return { write, batches, next, inFlight: () => waiting.length };
}

const settled = (p: Promise<unknown>) =>
  p.then(
    () => "ok",
    (err: Error) => err.message,
  );

/** Lets the promise callbacks queued so far run. */
const flushMicrotasks = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("startGroupCommit", () => {
  it("when idle, then an item is written at once, alone", async () => {
    const w = manualWrite();
    let kicks = 0;
    const gc = startGroupCommit({ write: w.write, maxBatch: 4, afterCommit: () => kicks++ });
    const a = settled(gc.submit("a"));
    expect(w.batches).toEqual([["a"]]);
    w.next().commit();
    expect(await a).toBe("ok");
    expect(kicks).toBe(1);
    await gc.idle();
  });

  it("when a submitter answered by a write submits again on any later microtask, then that item is written too (never stranded)", async () => {
    for (let ticks = 0; ticks <= 10; ticks++) {
      const gc = startGroupCommit<number, number>({ write: (batch) => Promise.resolve(batch.map((x) => x * 2)), maxBatch: 8 });
      // the second item is submitted `ticks` microtasks after the first was answered: some of those
      // land after the drain's last look at the queue and before it counts as finished
      let chain: Promise<unknown> = gc.submit(1);
      for (let i = 0; i < ticks; i++) chain = chain.then(() => undefined);
      const again = await Promise.race([
        chain.then(() => gc.submit(2)),
        flushMicrotasks()
          .then(flushMicrotasks)
          .then(() => "stranded"),
      ]);
      expect({ ticks, again }).toEqual({ ticks, again: 4 });
    }
  });

  it("when items arrive while a write is in flight, then the next write takes them together, at most maxBatch at a time", async () => {
    const w = manualWrite();
    const gc = startGroupCommit({ write: w.write, maxBatch: 3 });
    const results = ["a", "b", "c", "d", "e", "f"].map((x) => settled(gc.submit(x)));
    expect(w.batches).toEqual([["a"]]);
    w.next().commit();
    await flushMicrotasks();
    expect(w.batches).toEqual([["a"], ["b", "c", "d"]]);
    expect(w.inFlight()).toBe(1);
    w.next().commit();
    await flushMicrotasks();
    expect(w.batches[2]).toEqual(["e", "f"]);
    w.next().commit();
    expect(await Promise.all(results)).toEqual(["ok", "ok", "ok", "ok", "ok", "ok"]);
    await gc.idle();
  });

  it("when items are weighed, then a batch stops before the item that would bring it past the maximum weight, and a heavy item goes alone", async () => {
    const w = manualWrite();
    const gc = startGroupCommit({ write: w.write, maxBatch: 10, weigh: (x) => x.length, maxWeight: 4 });
    const results = ["a", "bb", "cc", "d", "eeeeee", "f"].map((x) => settled(gc.submit(x)));
    for (let i = 0; i < 4; i++) {
      w.next().commit();
      await flushMicrotasks();
    }
    expect(w.batches).toEqual([["a"], ["bb", "cc"], ["d"], ["eeeeee"], ["f"]]);
    w.next().commit();
    expect(await Promise.all(results)).toEqual(["ok", "ok", "ok", "ok", "ok", "ok"]);
  });

  it("when a write refuses one item, then only that item is rejected, the others resolve, and only they are handed on as committed", async () => {
    const w = manualWrite((item) => (item === "bad" ? new Error("inbox gone") : null));
    const committed: string[][] = [];
    const gc = startGroupCommit({ write: w.write, maxBatch: 8, afterCommit: (items) => void committed.push(items) });
    const first = settled(gc.submit("first"));
    const batch = ["x", "bad", "y"].map((i) => settled(gc.submit(i)));
    w.next().commit();
    await flushMicrotasks();
    w.next().commit();
    expect(await first).toBe("ok");
    expect(await Promise.all(batch)).toEqual(["ok", "inbox gone", "ok"]);
    expect(w.batches).toEqual([["first"], ["x", "bad", "y"]]);
    expect(committed).toEqual([["first"], ["x", "y"]]);
  });

  it("when a batched write fails, then each of its items is retried alone and only the failing one is rejected", async () => {
    const w = manualWrite();
    const gc = startGroupCommit({ write: w.write, maxBatch: 8 });
    const first = settled(gc.submit("first"));
    const batch = ["x", "bad", "y"].map((i) => settled(gc.submit(i)));
    w.next().commit();
    await flushMicrotasks();
    w.next().fail(new Error("statement failed"));
    // retried one by one, in order
    for (const item of ["x", "bad", "y"]) {
      await flushMicrotasks();
      expect(w.batches[w.batches.length - 1]).toEqual([item]);
      if (item === "bad") w.next().fail(new Error("bad row"));
      else w.next().commit();
    }
    expect(await first).toBe("ok");
    expect(await Promise.all(batch)).toEqual(["ok", "bad row", "ok"]);
    await gc.idle();
    expect(w.inFlight()).toBe(0);
  });

  it("when a statement answers each item (lookups), then each submitter gets its own result, and nothing is committed when all are refused", async () => {
    let kicks = 0;
    const gc = startGroupCommit<string, number | null>({
      write: (batch) => Promise.resolve(batch.map((x) => (x === "refused" ? new Error("no") : x === "none" ? null : x.length))),
      maxBatch: 8,
      afterCommit: () => kicks++,
    });
    const results = await Promise.all(["a", "bbb", "none"].map((x) => gc.submit(x)));
    expect(results).toEqual([1, 3, null]);
    await expect(gc.submit("refused")).rejects.toThrow("no");
    // "a" alone, then "bbb" and "none" together; the refused one alone commits nothing
    expect(kicks).toBe(2);
  });

  it("when a write of one item fails, then it is rejected without a retry, and the next items are still written", async () => {
    const w = manualWrite();
    let kicks = 0;
    const gc = startGroupCommit({ write: w.write, maxBatch: 8, afterCommit: () => kicks++ });
    const a = settled(gc.submit("a"));
    const b = settled(gc.submit("b"));
    w.next().fail(new Error("down"));
    expect(await a).toBe("down");
    await flushMicrotasks();
    w.next().commit();
    expect(await b).toBe("ok");
    expect(w.batches).toEqual([["a"], ["b"]]);
    expect(kicks).toBe(1);
  });
  describe("with lingerMs", () => {
    beforeEach(() => jest.useFakeTimers());
    afterEach(() => jest.useRealTimers());

    it("when idle, then the first item waits the linger for others, and they are written together", async () => {
      const w = manualWrite();
      const gc = startGroupCommit({ write: w.write, maxBatch: 8, lingerMs: 20 });
      const results = ["a", "b", "c"].map((x) => settled(gc.submit(x)));
      expect(w.batches).toEqual([]);
      jest.advanceTimersByTime(20);
      expect(w.batches).toEqual([["a", "b", "c"]]);
      w.next().commit();
      expect(await Promise.all(results)).toEqual(["ok", "ok", "ok"]);
      await gc.idle();
    });

    it("when maxBatch items wait, then they are written without waiting out the linger", async () => {
      const w = manualWrite();
      const gc = startGroupCommit({ write: w.write, maxBatch: 2, lingerMs: 1_000 });
      const results = ["a", "b"].map((x) => settled(gc.submit(x)));
      expect(w.batches).toEqual([["a", "b"]]);
      w.next().commit();
      expect(await Promise.all(results)).toEqual(["ok", "ok"]);
    });

    it("when items arrive while a write is in flight, then the next write takes them as soon as it returns, and idle waits for the linger", async () => {
      const w = manualWrite();
      const gc = startGroupCommit({ write: w.write, maxBatch: 8, lingerMs: 20 });
      const first = settled(gc.submit("a"));
      let idle = false;
      const idled = gc.idle().then(() => (idle = true));
      jest.advanceTimersByTime(20);
      const later = ["b", "c"].map((x) => settled(gc.submit(x)));
      w.next().commit();
      expect(await first).toBe("ok");
      await Promise.resolve();
      expect(w.batches).toEqual([["a"], ["b", "c"]]);
      expect(idle).toBe(false);
      w.next().commit();
      expect(await Promise.all(later)).toEqual(["ok", "ok"]);
      await idled;
      expect(idle).toBe(true);
    });
  });
});
