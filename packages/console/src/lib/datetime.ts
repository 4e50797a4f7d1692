/** Formatting of times by the user's settings (`GET /auth/datetime-settings`); no React here. */
export interface DatetimeSettings {
  timezone: string;
  /** Tokens YYYY, YY, MMM, MM, M, DD, D, e.g. "YYYY-MM-DD", "DD/MM/YYYY", "MMM D, YYYY". */
  date_format: string;
  /** "12h" or "24h" */
  time_format: string;
}

export const BROWSER_DEFAULTS: DatetimeSettings = {
  timezone: Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC",
  date_format: "YYYY-MM-DD",
  time_format: "24h",
};

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * One formatter per timezone, made once: a new Intl.DateTimeFormat costs far more than a format
 * (on a loaded two-core machine it was most of a list's first render, every countdown's label
 * making its own each second).
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterIn(timeZone: string): Intl.DateTimeFormat {
  let fmt = formatters.get(timeZone);
  if (fmt) return fmt;
  const make = (tz: string) =>
    new Intl.DateTimeFormat("en-US", {
      timeZone: tz,
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "2-digit",
      hourCycle: "h23",
    });
  try {
    fmt = make(timeZone);
  } catch {
    fmt = formatters.get("UTC") ?? make("UTC");
  }
  formatters.set(timeZone, fmt);
  return fmt;
}

function partsIn(date: Date, timeZone: string): Record<string, string> {
  return Object.fromEntries(
    formatterIn(timeZone)
      .formatToParts(date)
      .map((p) => [p.type, p.value]),
  );
}

/** "2026-11-27 14:05" (or "27/11/2026 2:05 PM"), in the user's timezone and formats. */
export function formatAbsolute(value: string | Date, s: DatetimeSettings): string {
  const date = typeof value === "string" ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return String(value);
  const p = partsIn(date, s.timezone);
  const year = p.year ?? "";
  const month = Number(p.month);
  const day = Number(p.day);
  const dateText = s.date_format.replace(/YYYY|YY|MMM|MM|M|DD|D/g, (t) => {
    switch (t) {
      case "YYYY":
        return year;
      case "YY":
        return year.slice(-2);
      case "MMM":
        return MONTHS[month - 1] ?? "";
      case "MM":
        return String(month).padStart(2, "0");
      case "M":
        return String(month);
      case "DD":
        return String(day).padStart(2, "0");
      default:
        return String(day);
    }
  });
  const hour = Number(p.hour) % 24;
  const minute = p.minute ?? "00";
  const timeText =
    s.time_format === "12h" ? `${hour % 12 || 12}:${minute} ${hour < 12 ? "AM" : "PM"}` : `${String(hour).padStart(2, "0")}:${minute}`;
  return `${dateText} ${timeText}`;
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
  ["second", 1],
];
const relative = new Intl.RelativeTimeFormat("en", { numeric: "auto" });

/** "3 minutes ago", "in 2 hours", "now". */
export function formatRelative(value: string | Date, now: number): string {
  const date = typeof value === "string" ? new Date(value) : value;
  const seconds = Math.round((date.getTime() - now) / 1000);
  if (Math.abs(seconds) < 10) return "now";
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size || unit === "second") return relative.format(Math.trunc(seconds / size), unit);
  }
  return relative.format(seconds, "second");
}
