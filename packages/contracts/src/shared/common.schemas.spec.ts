import { Duration, parseDurationMs } from "./common.schemas";

describe("durations", () => {
  it.each([
    ["90s", 90_000],
    ["15m", 900_000],
    ["2160h", 2160 * 3_600_000],
    ["1h30m", 5_400_000],
    ["90d", 90 * 86_400_000],
    ["250ms", 250],
  ])("when %s is parsed, then it is %i ms", (input, ms) => {
    expect(Duration.safeParse(input).success).toBe(true);
    expect(parseDurationMs(input)).toBe(ms);
  });

  it.each([["10"], ["1w"], ["h"], ["1.5h"], [""], ["-5m"]])("when %s is given, then it is refused", (input) => {
    expect(Duration.safeParse(input).success).toBe(false);
    expect(() => parseDurationMs(input)).toThrow();
  });
});
