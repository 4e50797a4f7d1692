import type { EmailsPerDay } from "@burnbox/contracts";
import type { OrgScope, TeamScope } from "@burnbox/service-kit/data";
import type { TenancyDeps } from "../deps";
import { lastDays, zeroFilled } from "./series";

/** Emails per UTC day of an org or team: exactly `days` points ending today, zero-filled. */
export async function emailsPerDay(deps: TenancyDeps, scope: OrgScope | TeamScope, days: number): Promise<EmailsPerDay> {
  const range = lastDays(new Date(deps.now()), days);
  const rows = await deps.data.repos.analytics.perDay(scope, range);
  const counts = zeroFilled(range.dates, rows, (r) => r.emails);
  return { data: range.dates.map((date, i) => ({ date, count: counts[i] ?? 0 })) };
}
