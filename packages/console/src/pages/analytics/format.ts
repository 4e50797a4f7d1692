// Plain rules of the analytics page: the day ranges offered, and the words and numbers under each chart.

/** The ranges offered (the API takes any 1..365; these are the useful ones). */
export const DAY_RANGES = [7, 30, 90, 365] as const;
export const DEFAULT_DAYS = 30;

/** `?days=` as one of the offered ranges (anything else: the default). */
export function parseDays(value: string | null): number {
  const n = Number(value);
  return (DAY_RANGES as readonly number[]).includes(n) ? n : DEFAULT_DAYS;
}

export const rangeLabel = (days: number): string => (days === 365 ? "1 year" : `${days} days`);

const numberFormat = new Intl.NumberFormat("en");
export const formatCount = (n: number): string => numberFormat.format(n);

/** 1536 → "1.5 KB" (powers of 1024, one decimal below 10). */
export function formatBytes(bytes: number): string {
  const units = ["bytes", "KB", "MB", "GB", "TB"];
  let v = bytes;
  let i = 0;
  while (Math.abs(v) >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  if (i === 0) return `${v} ${v === 1 ? "byte" : "bytes"}`;
  return `${v < 10 ? v.toFixed(1) : Math.round(v)} ${units[i]}`;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
/** A series' UTC date (`2026-11-27`) as "Nov 27". */
export function shortDate(date: string): string {
  const [, m, d] = date.split("-");
  const month = MONTHS[Number(m) - 1];
  return month && d ? `${month} ${Number(d)}` : date;
}

/** 0..23 → "09:00" (UTC). */
export const hourLabel = (hour: number): string => `${String(hour).padStart(2, "0")}:00`;

const plural = (n: number, one: string, many: string) => `${formatCount(n)} ${n === 1 ? one : many}`;

/** The text alternative of a per-day count series: the total and the busiest day. */
export function daySeriesSummary(series: Array<{ date: string; count: number }>, one: string, many: string): string {
  const total = series.reduce((s, p) => s + p.count, 0);
  const days = series.length;
  if (total === 0) return `No ${many} in the last ${plural(days, "day", "days")}.`;
  const peak = series.reduce((best, p) => (p.count > best.count ? p : best));
  return `${plural(total, one, many)} in the last ${plural(days, "day", "days")}; the busiest day was ${shortDate(peak.date)} with ${formatCount(peak.count)}.`;
}

/** The text alternative of the peak hours: the busiest hour. */
export function peakHoursSummary(hours: Array<{ hour: number; count: number }>): string {
  const total = hours.reduce((s, p) => s + p.count, 0);
  if (total === 0) return "No emails in this range, so no busiest hour yet.";
  const peak = hours.reduce((best, p) => (p.count > best.count ? p : best));
  return `The busiest hour is ${hourLabel(peak.hour)}–${hourLabel((peak.hour + 1) % 24)} UTC, with ${plural(peak.count, "email", "emails")}.`;
}

/** The text alternative of a per-domain breakdown: how many domains, the first. */
export function domainSummary(rows: Array<{ domain: string; count: number }>): string {
  const withMail = rows.filter((r) => r.count > 0);
  if (withMail.length === 0) return "No emails on any domain in this range.";
  const top = withMail.reduce((best, r) => (r.count > best.count ? r : best));
  return `${plural(withMail.length, "domain", "domains")} received mail; the most was ${top.domain} with ${plural(top.count, "email", "emails")}.`;
}

/** The text alternative of the storage series (bytes of mail received each day): the sum and the biggest day. */
export function storageSummary(series: Array<{ date: string; storage_bytes: number }>): string {
  const total = series.reduce((s, p) => s + p.storage_bytes, 0);
  if (total === 0) return `No mail stored in the last ${plural(series.length, "day", "days")}.`;
  const peak = series.reduce((best, p) => (p.storage_bytes > best.storage_bytes ? p : best));
  return `${formatBytes(total)} of mail in the last ${plural(series.length, "day", "days")}; the most was ${formatBytes(peak.storage_bytes)} on ${shortDate(peak.date)}.`;
}
