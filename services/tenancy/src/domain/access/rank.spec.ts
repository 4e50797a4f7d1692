import { rankVerdict } from "./rank";

describe("rankVerdict", () => {
  it("when an admin makes a member an owner, then the rank is too low (never granting above one's own)", () => {
    expect(rankVerdict({ actorRank: 20, targetRank: 10, newRank: 30, self: false })).toBe("rank_too_low");
  });
  it("when an owner promotes a member to admin, then it is allowed", () => {
    expect(rankVerdict({ actorRank: 30, targetRank: 10, newRank: 20, self: false })).toBe("allowed");
  });
  it("when the actor's rank equals the target's, then it is refused (strictly above)", () => {
    expect(rankVerdict({ actorRank: 20, targetRank: 20, newRank: 10, self: false })).toBe("rank_too_low");
    expect(rankVerdict({ actorRank: 20, targetRank: 20, newRank: null, self: false })).toBe("rank_too_low");
  });
  it("when the actor lowers their own role or leaves, then it is allowed; raising it is not", () => {
    expect(rankVerdict({ actorRank: 30, targetRank: 30, newRank: 10, self: true })).toBe("allowed");
    expect(rankVerdict({ actorRank: 10, targetRank: 10, newRank: null, self: true })).toBe("allowed");
    expect(rankVerdict({ actorRank: 20, targetRank: 20, newRank: 30, self: true })).toBe("rank_too_low");
  });
});
