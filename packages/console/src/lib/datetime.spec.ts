import { formatAbsolute, formatRelative } from "./datetime";

describe("times as the user reads them", () => {
  const at = "2026-11-27T14:05:09Z";

  it("when the settings name a timezone and formats, then the absolute time follows them", () => {
    expect(formatAbsolute(at, { timezone: "UTC", date_format: "YYYY-MM-DD", time_format: "24h" })).toBe("2026-11-27 14:05");
    expect(formatAbsolute(at, { timezone: "America/New_York", date_format: "MM/DD/YYYY", time_format: "12h" })).toBe("11/27/2026 9:05 AM");
    expect(formatAbsolute(at, { timezone: "Asia/Tokyo", date_format: "DD.MM.YY", time_format: "24h" })).toBe("27.11.26 23:05");
    expect(formatAbsolute(at, { timezone: "Europe/Berlin", date_format: "MMM D, YYYY", time_format: "12h" })).toBe("Nov 27, 2026 3:05 PM");
    expect(formatAbsolute("2026-11-27T00:30:00Z", { timezone: "UTC", date_format: "D/M/YYYY", time_format: "12h" })).toBe(
      "27/11/2026 12:30 AM",
    );
  });

  it("when the timezone is unknown, then UTC stands in; when the value is not a time, then it is shown as given", () => {
    expect(formatAbsolute(at, { timezone: "Mars/Olympus", date_format: "YYYY-MM-DD", time_format: "24h" })).toBe("2026-11-27 14:05");
    expect(formatAbsolute("not a time", { timezone: "UTC", date_format: "YYYY-MM-DD", time_format: "24h" })).toBe("not a time");
  });

  it("when a time is near or far, then the relative form says how far, past or future", () => {
    const now = Date.parse(at);
    expect(formatRelative(at, now + 3_000)).toBe("now");
    expect(formatRelative(at, now + 5 * 60_000)).toBe("5 minutes ago");
    expect(formatRelative(at, now - 2 * 3_600_000)).toBe("in 2 hours");
    expect(formatRelative(at, now + 26 * 3_600_000)).toBe("yesterday");
    expect(formatRelative(at, now + 40 * 86_400_000)).toBe("last month");
  });
});
