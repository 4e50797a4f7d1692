import { passwordProblem } from "./passwords";

const policy = { min_length: 8, require_uppercase: true, require_lowercase: true, require_digit: true, require_symbol: true };

describe("passwordProblem", () => {
  it.each([
    ["Short1!", "at least 8"],
    ["alllower-1", "uppercase"],
    ["ALLUPPER-1", "lowercase"],
    ["NoDigits-here", "digit"],
    ["NoSymbols123", "symbol"],
  ])("refuses %s (%s)", (pw, problem) => {
    expect(passwordProblem(pw, policy)).toContain(problem);
  });

  it("accepts a password with all four classes, and follows a relaxed policy", () => {
    expect(passwordProblem("Correct-Horse-9", policy)).toBeNull();
    expect(
      passwordProblem("plainpassword", { ...policy, require_uppercase: false, require_digit: false, require_symbol: false }),
    ).toBeNull();
  });
});
