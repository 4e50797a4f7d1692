import { humanDuration, parseDuration, toDurationString, ttlPresets } from "./duration";

describe("durations as the API writes them", () => {
  it.each([
    ["10m", 600_000],
    ["1h30m", 5_400_000],
    ["24h", 86_400_000],
    ["90s", 90_000],
    ["2d", 172_800_000],
    ["500ms", 500],
  ])("when %p is parsed, then it is %p ms", (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
    expect(parseDuration(toDurationString(ms)) ?? 0).toBe(Math.round(ms / 1000) * 1000);
  });

  it.each(["", "10", "ten minutes", "1h 30m", "-5m", "5x"])("when %p is parsed, then it is not a duration", (text) => {
    expect(parseDuration(text)).toBeNull();
  });

  it("when a duration is shown, then it has two units at most and no zero second unit", () => {
    expect(humanDuration(3_600_000)).toBe("1 h");
    expect(humanDuration(3_599_000)).toBe("59 min 59 s");
    expect(humanDuration(90_061_000)).toBe("1 d 1 h");
    expect(humanDuration(0)).toBe("0 s");
  });

  it("when the maximum TTL is 2 h, then the presets stop there and include it", () => {
    expect(ttlPresets(7_200_000).map((p) => p.value)).toEqual(["5m", "10m", "30m", "1h", "2h"]);
    expect(ttlPresets(5_400_000).map((p) => p.value)).toEqual(["5m", "10m", "30m", "1h", "1h30m"]);
  });
});
