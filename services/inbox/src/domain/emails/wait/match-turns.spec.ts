import { AppError } from "@burnbox/service-kit/runtime";
import { MatchBudget, MatchTurns } from "./match-turns";

/** Spins for `ms` of wall time: an email whose matching is costly. */
const burn = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};

describe("MatchTurns", () => {
  it("when several waits match costly emails, then the event loop serves other work between emails, and the waits take turns", async () => {
    const turns = new MatchTurns(5);
    const order: string[] = [];
    const test = (name: string) => (n: number) => {
      order.push(`${name}${n}`);
      burn(15);
      return n % 2 === 0;
    };
    // another request's steps: each gets in between emails, not after all of them
    let ticking = true;
    const tick = () => {
      if (order.at(-1) !== "tick") order.push("tick");
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const [a, b] = await Promise.all([
      turns.filter([1, 2, 3, 4], test("a"), new MatchBudget(10_000)),
      turns.filter([1, 2, 3, 4], test("b"), new MatchBudget(10_000)),
    ]);
    ticking = false;
    expect(a).toEqual([2, 4]);
    expect(b).toEqual([2, 4]);
    const emails = order.filter((e) => e !== "tick");
    expect(emails).toEqual(["a1", "b1", "a2", "b2", "a3", "b3", "a4", "b4"]);
    // each email of 15 ms is longer than a turn's 5 ms: the loop runs other work after every one
    for (let i = 1; i < order.length; i++) if (order[i] !== "tick") expect(order[i - 1]).toBe("tick");
    expect(turns.queued).toBe(0);
  });

  it("when a wait's matching passes its CPU budget, then it is refused with a 400 and matches nothing more", async () => {
    // a clock that each email moves on by 12 ms: the budget's arithmetic, whatever the machine's load
    let now = 0;
    const turns = new MatchTurns(5, () => now);
    const budget = new MatchBudget(30);
    let tested = 0;
    const costly = () => {
      tested++;
      now += 12;
      return false;
    };
    const refused = await turns
      .filter(
        Array.from({ length: 20 }, (_, i) => i),
        costly,
        budget,
      )
      .catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).status).toBe(400);
    expect((refused as AppError).message).toMatch(/spent more than 0.03 s of CPU/);
    // 12, 24, 36 ms: the third passes 30
    expect(tested).toBe(3);
    // a later wake of the same wait is refused at once
    await expect(turns.filter([1], costly, budget)).rejects.toBeInstanceOf(AppError);
    expect(tested).toBe(3);
  });

  it("when a wait has answered, then what it still had queued is dropped", async () => {
    const turns = new MatchTurns(5);
    const budget = new MatchBudget(10_000);
    let tested = 0;
    const pending = turns.filter(
      Array.from({ length: 50 }, (_, i) => i),
      () => {
        tested++;
        burn(6);
        return true;
      },
      budget,
    );
    budget.stop();
    const passed = await pending;
    expect(passed.length).toBe(tested);
    expect(tested).toBeLessThan(50);
  });
});
