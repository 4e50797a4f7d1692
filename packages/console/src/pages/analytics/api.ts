// The analytics area's server state: the query and mutation hooks its pages call (never bb.api directly).
import { apiQueryWith } from "../../api/query";
import { analyticsKeys } from "./keys";

/** `GET /orgs/{orgId}/analytics` */
export const useOrgAnalytics = apiQueryWith(
  (args: { orgId: string; path: { orgId: string } }) => analyticsKeys.org(args.orgId),
  (bb, signal, args) => bb.api.GET("/orgs/{orgId}/analytics", { params: { path: args.path }, signal }),
);

/** `GET /orgs/{orgId}/analytics/emails-per-day` */
export const useOrgEmailsPerDay = apiQueryWith(
  (args: { orgId: string; days: number; path: { orgId: string } }) => analyticsKeys.orgEmails(args.orgId, args.days),
  (bb, signal, args) =>
    bb.api.GET("/orgs/{orgId}/analytics/emails-per-day", { params: { path: args.path, query: { days: args.days } }, signal }),
);

/** `GET /orgs/{orgId}/analytics/insights` */
export const useOrgInsights = apiQueryWith(
  (args: { orgId: string; days: number; path: { orgId: string } }) => analyticsKeys.orgInsights(args.orgId, args.days),
  (bb, signal, args) => bb.api.GET("/orgs/{orgId}/analytics/insights", { params: { path: args.path, query: { days: args.days } }, signal }),
);

/** `GET /orgs/{orgId}/domains` */
export const useOrgDomains = apiQueryWith(
  (args: { orgId: string; path: { orgId: string } }) => analyticsKeys.orgDomains(args.orgId),
  (bb, signal, args) => bb.api.GET("/orgs/{orgId}/domains", { params: { path: args.path, query: { per_page: 100 } }, signal }),
);

/** `GET /orgs/{orgId}/analytics/domain-series` */
export const useDomainSeries = apiQueryWith(
  (args: { orgId: string; chosen: string | undefined; days: number; path: { orgId: string } }) =>
    analyticsKeys.domainSeries(args.orgId, args.chosen ?? "", args.days),
  (bb, signal, args) =>
    bb.api.GET("/orgs/{orgId}/analytics/domain-series", {
      params: { path: args.path, query: { domain: args.chosen!, days: args.days } },
      signal,
    }),
);

/** `GET /orgs/{orgId}/teams/{teamId}/analytics` */
export const useTeamAnalytics = apiQueryWith(
  (args: { teamId: string; path: { orgId: string; teamId: string } }) => analyticsKeys.team(args.teamId),
  (bb, signal, args) => bb.api.GET("/orgs/{orgId}/teams/{teamId}/analytics", { params: { path: args.path }, signal }),
);

/** `GET /orgs/{orgId}/teams/{teamId}/analytics/emails-per-day` */
export const useTeamEmailsPerDay = apiQueryWith(
  (args: { teamId: string; days: number; path: { orgId: string; teamId: string } }) => analyticsKeys.teamEmails(args.teamId, args.days),
  (bb, signal, args) =>
    bb.api.GET("/orgs/{orgId}/teams/{teamId}/analytics/emails-per-day", {
      params: { path: args.path, query: { days: args.days } },
      signal,
    }),
);

/** `GET /orgs/{orgId}/teams/{teamId}/analytics/insights` */
export const useTeamInsights = apiQueryWith(
  (args: { teamId: string; days: number; path: { orgId: string; teamId: string } }) => analyticsKeys.teamInsights(args.teamId, args.days),
  (bb, signal, args) =>
    bb.api.GET("/orgs/{orgId}/teams/{teamId}/analytics/insights", { params: { path: args.path, query: { days: args.days } }, signal }),
);
