import { removeInBatches } from "./index";

/** A batch function answering `answers` in turn (then 0), recording the sizes it was asked for. */
const batches = (answers: number[]) => {
  const calls: number[] = [];
  return { calls, batch: async (size: number) => (calls.push(size), answers.shift() ?? 0) };
};

describe("removeInBatches", () => {
  it("when a batch comes back short, then it stops and answers the total", async () => {
    const b = batches([10, 10, 3]);
    expect(await removeInBatches({ size: 10, batch: b.batch })).toBe(23);
    expect(b.calls).toEqual([10, 10, 10]);
  });

  it("when untilEmpty is set, then a short batch is not the last; only an empty one is", async () => {
    const b = batches([10, 4, 7, 0]);
    expect(await removeInBatches({ size: 10, untilEmpty: true, batch: b.batch })).toBe(21);
    expect(b.calls).toHaveLength(4);
  });
});
