import { TOP_SENDER_DOMAINS, type OrgAnalytics } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { requireOrg } from "../access/require-access";
import type { TenancyDeps } from "../deps";

/** The org's lifetime totals (kept from events), its footprint now, and its top sender domains. */
export async function getOrgAnalytics(deps: TenancyDeps, ctx: RequestCtx, input: { orgId: string }): Promise<OrgAnalytics> {
  const scope = await requireOrg(deps, ctx, input, "org.analytics.view");
  const { analytics } = deps.data.repos;
  const [totals, footprint, senders] = await Promise.all([
    analytics.totals(scope),
    analytics.orgFootprint(scope),
    analytics.topSenderDomains(scope, TOP_SENDER_DOMAINS),
  ]);
  return {
    total_emails: totals.emails,
    total_inboxes: totals.inboxesCreated,
    active_inboxes: totals.activeInboxes,
    total_domains: footprint.domains,
    total_teams: footprint.teams,
    total_members: footprint.members,
    storage_used_bytes: totals.emailBytes,
    top_sender_domains: senders.map((s) => ({ domain: s.domain, count: s.emails })),
  };
}
