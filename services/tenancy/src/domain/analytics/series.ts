import type { Bucket, DayRange } from "../../data/analytics.repository";

const DAY_MS = 86_400_000;

/** The UTC day (`YYYY-MM-DD`) and hour of an instant: the bucket an event counts in. */
export function bucketOf(at: Date): Bucket {
  return { day: at.toISOString().slice(0, 10), hour: at.getUTCHours() };
}

/** The `days` UTC dates ending today, oldest first, and the range they span. */
export function lastDays(now: Date, days: number): DayRange & { dates: string[] } {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const dates = Array.from({ length: days }, (_, i) => new Date(today - (days - 1 - i) * DAY_MS).toISOString().slice(0, 10));
  return { from: dates[0] as string, to: dates[dates.length - 1] as string, dates };
}

/** One value per date, zero where the rows have none. */
export function zeroFilled<R extends { day: string }>(dates: readonly string[], rows: readonly R[], value: (r: R) => number): number[] {
  const byDay = new Map(rows.map((r) => [r.day, value(r)]));
  return dates.map((d) => byDay.get(d) ?? 0);
}

/** The 24 UTC hours in order, zero where no mail came. */
export function allHours(rows: ReadonlyArray<{ hour: number; emails: number }>): Array<{ hour: number; count: number }> {
  const byHour = new Map(rows.map((r) => [r.hour, r.emails]));
  return Array.from({ length: 24 }, (_, hour) => ({ hour, count: byHour.get(hour) ?? 0 }));
}

/** The domain part of an address, lower-cased; null when there is none. */
export function domainOf(address: string): string | null {
  const at = address.lastIndexOf("@");
  const domain =
    at < 0
      ? ""
      : address
          .slice(at + 1)
          .trim()
          .toLowerCase();
  return domain.length > 0 ? domain.slice(0, 253) : null;
}
