import { attemptOutcome } from "./retry-schedule";

const t0 = new Date("2026-01-02T03:04:05.000Z");
const after = (ms: number) => new Date(t0.getTime() + ms);

describe("the retry schedule", () => {
  it("when every attempt fails with the default 5 s base and 3 attempts, then they go at 0, 5 and 30 s and the third is final", () => {
    const first = attemptOutcome({ success: false, attempt: 1, maxAttempts: 3, retryBaseMs: 5000, at: t0 });
    expect(first).toEqual({ status: "pending", nextAttemptAt: after(5_000) });
    const second = attemptOutcome({ success: false, attempt: 2, maxAttempts: 3, retryBaseMs: 5000, at: after(5_000) });
    expect(second).toEqual({ status: "pending", nextAttemptAt: after(30_000) });
    expect(attemptOutcome({ success: false, attempt: 3, maxAttempts: 3, retryBaseMs: 5000, at: after(30_000) })).toEqual({
      status: "failed",
    });
  });

  it("when more attempts are allowed, then each waits five times longer than the one before", () => {
    expect(attemptOutcome({ success: false, attempt: 3, maxAttempts: 5, retryBaseMs: 5000, at: t0 })).toEqual({
      status: "pending",
      nextAttemptAt: after(125_000),
    });
  });

  it("when the last allowed attempt succeeds, then the delivery succeeded", () => {
    expect(attemptOutcome({ success: true, attempt: 3, maxAttempts: 3, retryBaseMs: 5000, at: t0 })).toEqual({ status: "succeeded" });
  });
});
