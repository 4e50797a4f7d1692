import { daySeriesSummary, domainSummary, formatBytes, parseDays, peakHoursSummary, shortDate, storageSummary } from "./format";

describe("the analytics page's words and numbers", () => {
  it("when ?days= is one of the offered ranges, then it is used; anything else falls back to 30", () => {
    expect(parseDays("7")).toBe(7);
    expect(parseDays("365")).toBe(365);
    expect(parseDays("12")).toBe(30);
    expect(parseDays(null)).toBe(30);
  });

  it("when a day series has mail, then the text gives the total and the busiest day; none says so", () => {
    const series = [
      { date: "2026-11-26", count: 1 },
      { date: "2026-11-27", count: 3 },
    ];
    expect(daySeriesSummary(series, "email", "emails")).toBe("4 emails in the last 2 days; the busiest day was Nov 27 with 3.");
    expect(daySeriesSummary([{ date: "2026-11-27", count: 0 }], "email", "emails")).toBe("No emails in the last 1 day.");
    expect(daySeriesSummary([{ date: "2026-11-27", count: 1 }], "inbox", "inboxes")).toBe(
      "1 inbox in the last 1 day; the busiest day was Nov 27 with 1.",
    );
  });

  it("when hours, domains and storage have figures, then the busiest of each is named", () => {
    expect(
      peakHoursSummary([
        { hour: 9, count: 2 },
        { hour: 23, count: 5 },
      ]),
    ).toBe("The busiest hour is 23:00–00:00 UTC, with 5 emails.");
    expect(
      domainSummary([
        { domain: "a.test", count: 0 },
        { domain: "b.test", count: 2 },
      ]),
    ).toBe("1 domain received mail; the most was b.test with 2 emails.");
    expect(storageSummary([{ date: "2026-11-27", storage_bytes: 2048 }])).toBe(
      "2.0 KB of mail in the last 1 day; the most was 2.0 KB on Nov 27.",
    );
  });

  it("when bytes and dates are shown, then they read short", () => {
    expect(formatBytes(1)).toBe("1 byte");
    expect(formatBytes(1536)).toBe("1.5 KB");
    expect(formatBytes(50 * 1024 * 1024)).toBe("50 MB");
    expect(shortDate("2026-01-05")).toBe("Jan 5");
  });
});
