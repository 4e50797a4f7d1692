import { z } from "../zod";

export const ANALYTICS_DAYS_DEFAULT = 30;
export const ANALYTICS_DAYS_MAX = 365;
/** How many sender domains the org summary lists. */
export const TOP_SENDER_DOMAINS = 5;

/** `days`: 1..365, 30 when absent; anything else (0, 366, `abc`, `1.5`) is a 400, never clamped. */
const Days = z
  .string()
  .optional()
  .transform((v, ctx) => {
    if (v === undefined) return ANALYTICS_DAYS_DEFAULT;
    const n = /^\d{1,4}$/.test(v) ? Number(v) : NaN;
    if (!(n >= 1 && n <= ANALYTICS_DAYS_MAX)) {
      ctx.addIssue({ code: "custom", message: `days must be an integer between 1 and ${ANALYTICS_DAYS_MAX}` });
      return z.NEVER;
    }
    return n;
  })
  .openapi({ type: "integer", minimum: 1, maximum: ANALYTICS_DAYS_MAX, default: ANALYTICS_DAYS_DEFAULT });

export const AnalyticsDaysQuery = z.object({ days: Days });
export type AnalyticsDaysQuery = z.infer<typeof AnalyticsDaysQuery>;
export const DomainSeriesQuery = z.object({ domain: z.string().min(1).max(253), days: Days });
export type DomainSeriesQuery = z.infer<typeof DomainSeriesQuery>;

/** One UTC day of a series (`YYYY-MM-DD`). */
export const DayCount = z.object({ date: z.string(), count: z.number().int() }).openapi("AnalyticsDayCount");
export type DayCount = z.infer<typeof DayCount>;
export const DayStorage = z.object({ date: z.string(), storage_bytes: z.number().int() }).openapi("AnalyticsDayStorage");
export type DayStorage = z.infer<typeof DayStorage>;
export const HourCount = z.object({ hour: z.number().int(), count: z.number().int() }).openapi("AnalyticsHourCount");
export type HourCount = z.infer<typeof HourCount>;
export const DomainCount = z.object({ domain: z.string(), count: z.number().int() }).openapi("AnalyticsDomainCount");
export type DomainCount = z.infer<typeof DomainCount>;

export const OrgAnalytics = z
  .object({
    total_emails: z.number().int(),
    total_inboxes: z.number().int(),
    active_inboxes: z.number().int(),
    total_domains: z.number().int(),
    total_teams: z.number().int(),
    total_members: z.number().int(),
    storage_used_bytes: z.number().int(),
    top_sender_domains: z.array(DomainCount),
  })
  .openapi("OrgAnalytics");
export type OrgAnalytics = z.infer<typeof OrgAnalytics>;

export const TeamAnalytics = z
  .object({
    total_emails: z.number().int(),
    total_inboxes: z.number().int(),
    active_inboxes: z.number().int(),
    total_members: z.number().int(),
  })
  .openapi("TeamAnalytics");
export type TeamAnalytics = z.infer<typeof TeamAnalytics>;

export const EmailsPerDay = z.object({ data: z.array(DayCount) }).openapi("AnalyticsEmailsPerDay");
export type EmailsPerDay = z.infer<typeof EmailsPerDay>;

export const OrgInsights = z
  .object({
    inboxes_per_day: z.array(DayCount),
    peak_hours: z.array(HourCount),
    domain_breakdown: z.array(DomainCount),
    storage_per_day: z.array(DayStorage),
  })
  .openapi("OrgAnalyticsInsights");
export type OrgInsights = z.infer<typeof OrgInsights>;

export const TeamInsights = z
  .object({ inboxes_per_day: z.array(DayCount), peak_hours: z.array(HourCount), storage_per_day: z.array(DayStorage) })
  .openapi("TeamAnalyticsInsights");
export type TeamInsights = z.infer<typeof TeamInsights>;

export const DomainSeries = z.object({ domain: z.string(), data: z.array(DayCount) }).openapi("AnalyticsDomainSeries");
export type DomainSeries = z.infer<typeof DomainSeries>;
