import { allHours, bucketOf, domainOf, lastDays, zeroFilled } from "./series";

describe("analytics series", () => {
  it("when asked for 3 days, then the dates are the UTC days ending today, oldest first", () => {
    // 00:30 on the 1st in UTC is still the previous day in UTC-5: the series follows UTC
    const r = lastDays(new Date("2026-03-01T00:30:00Z"), 3);
    expect(r.dates).toEqual(["2026-02-27", "2026-02-28", "2026-03-01"]);
    expect(r).toMatchObject({ from: "2026-02-27", to: "2026-03-01" });
  });

  it("when asked for 365 days across a leap day, then exactly 365 distinct dates end today", () => {
    const r = lastDays(new Date("2028-12-31T23:59:59Z"), 365);
    expect(r.dates).toHaveLength(365);
    expect(new Set(r.dates).size).toBe(365);
    expect(r.dates[0]).toBe("2028-01-02");
    expect(r.dates).toContain("2028-02-29");
  });

  it("when only some days have rows, then the others are zero and the order is the dates'", () => {
    const dates = ["2026-01-01", "2026-01-02", "2026-01-03"];
    expect(
      zeroFilled(
        dates,
        [
          { day: "2026-01-03", n: 4 },
          { day: "2026-01-01", n: 2 },
        ],
        (r) => r.n,
      ),
    ).toEqual([2, 0, 4]);
  });

  it("when mail came at two hours, then all 24 hours are listed with zeros elsewhere", () => {
    const hours = allHours([
      { hour: 13, emails: 5 },
      { hour: 0, emails: 1 },
    ]);
    expect(hours).toHaveLength(24);
    expect(hours[0]).toEqual({ hour: 0, count: 1 });
    expect(hours[13]).toEqual({ hour: 13, count: 5 });
    expect(hours.filter((h) => h.count === 0)).toHaveLength(22);
  });

  it("when an event carries a time, then its bucket is its UTC day and hour", () => {
    expect(bucketOf(new Date("2026-11-23T23:59:59.999-02:00"))).toEqual({ day: "2026-11-24", hour: 1 });
  });

  it("when an address has a domain, then it is lower-cased; without one, null", () => {
    expect(domainOf("Alice@Mail.Example.ORG")).toBe("mail.example.org");
    expect(domainOf("a@b@c.test")).toBe("c.test");
    expect(domainOf("nobody")).toBeNull();
    expect(domainOf("trailing@")).toBeNull();
  });
});
