import type { DomainImpact } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import { requireOrg } from "../access/require-access";
import type { TenancyDeps } from "../deps";
import { liveInboxCountsOf } from "../inbox-counts/live-inbox-counts";

/** What deleting a domain would touch: its inboxes (asked of the inbox service), mail received, assignments and their teams' webhooks. */
export async function getDomainImpact(
  deps: TenancyDeps,
  ctx: RequestCtx,
  input: { orgId: string; domainId: string },
): Promise<DomainImpact> {
  const scope = await requireOrg(deps, ctx, input, "org.domains.view");
  const { domains, impact } = deps.data.repos;
  const domain = await domains.get(scope, input.domainId);
  if (!domain) throw errors.notFound("domain");
  const [assignments, totalEmails, inboxes] = await Promise.all([
    impact.domainAssignments(scope, domain.id),
    impact.domainEmails(scope, domain.domain_name),
    liveInboxCountsOf(deps, scope, domain.id),
  ]);
  const resources = await impact.teamResources(assignments.map((a) => a.teamId));
  return {
    active_inboxes: inboxes.active,
    total_inboxes: inboxes.total,
    total_emails: totalEmails,
    assignments: assignments.map((a) => ({ team_id: a.teamId, team_name: a.teamName, access_level: a.accessLevel })),
    webhooks_affected: assignments.reduce((n, a) => n + (resources.get(a.teamId)?.webhooks ?? 0), 0),
  };
}
