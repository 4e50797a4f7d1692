import type { TeamInsights } from "@burnbox/contracts";
import type { OrgScope, TeamScope } from "@burnbox/service-kit/data";
import type { DayRange } from "../../data/analytics.repository";
import type { TenancyDeps } from "../deps";
import { allHours, lastDays, zeroFilled } from "./series";

/** Inboxes and storage per UTC day (zero-filled, `days` points ending today) and the 24 hours' mail. */
export async function insights(deps: TenancyDeps, scope: OrgScope | TeamScope, days: number): Promise<TeamInsights & { range: DayRange }> {
  const range = lastDays(new Date(deps.now()), days);
  const { analytics } = deps.data.repos;
  const [perDay, perHour] = await Promise.all([analytics.perDay(scope, range), analytics.perHour(scope, range)]);
  const inboxes = zeroFilled(range.dates, perDay, (r) => r.inboxesCreated);
  const bytes = zeroFilled(range.dates, perDay, (r) => r.emailBytes);
  return {
    range,
    inboxes_per_day: range.dates.map((date, i) => ({ date, count: inboxes[i] ?? 0 })),
    peak_hours: allHours(perHour),
    storage_per_day: range.dates.map((date, i) => ({ date, storage_bytes: bytes[i] ?? 0 })),
  };
}
