import { formatScore, overRequired, spamLine } from "./spam";

describe("spam score wording", () => {
  it("prints a score as rspamd does, two decimals at most", () => {
    expect(formatScore(3.14159)).toBe("3.14");
    expect(formatScore(15)).toBe("15");
    expect(formatScore(-0.5)).toBe("-0.5");
  });
  it("marks a summary at or over the required score, never an unscored one", () => {
    expect(overRequired(1015.2)).toBe(true);
    expect(overRequired(15)).toBe(true);
    expect(overRequired(4.9)).toBe(false);
    expect(overRequired(6, 5)).toBe(true);
    expect(overRequired(null)).toBe(false);
  });
  it("says each state plainly", () => {
    expect(spamLine({ status: "scored", score: 2.5, required_score: 15, action: "no action", symbols: [] })).toBe(
      "Spam score 2.5 of 15 (no action)",
    );
    expect(spamLine({ status: "unavailable" })).toMatch(/^Not scored: the spam checker did not answer/);
    expect(spamLine({ status: "disabled" })).toMatch(/^Not scored: spam scoring is off/);
  });
});
