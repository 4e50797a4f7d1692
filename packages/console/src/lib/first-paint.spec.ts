import { HOLD_AT_MOST_MS, holdUntilPainted, isFirstPagePainted, markPainted, resetFirstPaintForTests } from "./first-paint";

describe("the work deferred until the first page has painted", () => {
  beforeEach(() => {
    jest.useFakeTimers();
    resetFirstPaintForTests();
  });
  afterEach(() => jest.useRealTimers());

  it("when no page holds it, then nothing waits", () => {
    expect(isFirstPagePainted()).toBe(true);
  });

  it("when a page holds it, then it waits until the page says it has painted", () => {
    holdUntilPainted();
    expect(isFirstPagePainted()).toBe(false);
    markPainted();
    jest.runOnlyPendingTimers();
    expect(isFirstPagePainted()).toBe(true);
  });

  it("when the page never says so, then it waits at most HOLD_AT_MOST_MS", () => {
    holdUntilPainted();
    jest.advanceTimersByTime(HOLD_AT_MOST_MS - 1);
    expect(isFirstPagePainted()).toBe(false);
    jest.advanceTimersByTime(1);
    expect(isFirstPagePainted()).toBe(true);
  });

  it("when the first page has painted, then a later hold does not hold anything back", () => {
    holdUntilPainted();
    markPainted();
    jest.runOnlyPendingTimers();
    holdUntilPainted();
    expect(isFirstPagePainted()).toBe(true);
  });
});
