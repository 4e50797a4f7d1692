import type { analyticsRoutes } from "@burnbox/contracts";
import type { Handlers } from "@burnbox/service-kit/http";
import type { TenancyDeps } from "../domain/deps";
import { getOrgAnalytics } from "../domain/analytics/get-org-analytics.use-case";
import { getOrgDomainSeries } from "../domain/analytics/get-org-domain-series.use-case";
import { getOrgEmailsPerDay } from "../domain/analytics/get-org-emails-per-day.use-case";
import { getOrgInsights } from "../domain/analytics/get-org-insights.use-case";
import { getTeamAnalytics } from "../domain/analytics/get-team-analytics.use-case";
import { getTeamEmailsPerDay } from "../domain/analytics/get-team-emails-per-day.use-case";
import { getTeamInsights } from "../domain/analytics/get-team-insights.use-case";

export const analyticsHandlers = (deps: TenancyDeps): Handlers<typeof analyticsRoutes> => ({
  getOrgAnalytics: ({ ctx, params }) => getOrgAnalytics(deps, ctx, params),
  getOrgEmailsPerDay: ({ ctx, params, query }) => getOrgEmailsPerDay(deps, ctx, { ...params, ...query }),
  getOrgInsights: ({ ctx, params, query }) => getOrgInsights(deps, ctx, { ...params, ...query }),
  getOrgDomainSeries: ({ ctx, params, query }) => getOrgDomainSeries(deps, ctx, { ...params, ...query }),
  getTeamAnalytics: ({ ctx, params }) => getTeamAnalytics(deps, ctx, params),
  getTeamEmailsPerDay: ({ ctx, params, query }) => getTeamEmailsPerDay(deps, ctx, { ...params, ...query }),
  getTeamInsights: ({ ctx, params, query }) => getTeamInsights(deps, ctx, { ...params, ...query }),
});
