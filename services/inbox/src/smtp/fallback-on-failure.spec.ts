import { fallbackOnFailure } from "./fallback-on-failure";

describe("fallbackOnFailure", () => {
  it("when the promise resolves, then its value, and nothing is reported", async () => {
    const failures: unknown[] = [];
    await expect(fallbackOnFailure(Promise.resolve(7), 0, (e) => failures.push(e))).resolves.toBe(7);
    expect(failures).toEqual([]);
  });

  it("when the promise rejects before anyone awaits it, then no unhandled rejection: the fallback, and the reason reported once", async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      const failures: unknown[] = [];
      const boom = new Error("invalid header");
      const guarded = fallbackOnFailure(Promise.reject(boom), { status: "unavailable" }, (e) => failures.push(e));
      // as the intake does: other work is awaited first
      await new Promise((r) => setImmediate(r));
      await expect(guarded).resolves.toEqual({ status: "unavailable" });
      expect(failures).toEqual([boom]);
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });
});
