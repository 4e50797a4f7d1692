import { claimsOf } from "./processed-events";

describe("claimsOf", () => {
  const item = (consumer: string, eventId: string, n: number) => ({ claim: { consumer, eventId }, n });

  it("when an event is in a batch twice, then the statement gets it once and only its first item is told it counted", () => {
    const batch = [item("c", "e1", 1), item("c", "e2", 2), item("c", "e1", 3), item("d", "e1", 4)];
    const { unique, outcomes } = claimsOf(batch);
    expect(unique.map((i) => i.n)).toEqual([1, 2, 4]);
    expect(
      outcomes([
        { consumer: "c", event_id: "e1" },
        { consumer: "d", event_id: "e1" },
      ]),
    ).toEqual([true, false, false, true]);
  });

  it("when the statement claimed nothing (every event seen before), then no item counted", () => {
    const { outcomes } = claimsOf([item("c", "e1", 1), item("c", "e2", 2)]);
    expect(outcomes([])).toEqual([false, false]);
  });
});
