import type { GetAssignmentReply } from "@burnbox/contracts";
import type { TenancyDeps } from "../deps";
import { withOrgDefaults } from "../orgs/org-settings";
import { resolveInboxLimit, resolveInboxTtl } from "./inbox-ttl";

/**
 * An assignment as inbox creation needs it (`tenancy.get_assignment`), with TTL limits resolved
 * org -> domain -> team -> assignment. The caller (the inbox service) authorizes the actor.
 */
export async function getAssignment(deps: TenancyDeps, input: { assignmentId: string }): Promise<GetAssignmentReply> {
  const a = await deps.data.repos.domainAssignments.locate(input.assignmentId);
  if (!a) return { assignment: null };
  const platformTtl = deps.platformTtl.current();
  // the platform's tier first: its maximum bounds every org's
  const layers = [platformTtl, withOrgDefaults(a.settings.org, platformTtl), a.settings.domain, a.settings.team, a.settings.assignment];
  const { defaultTtl, maxTtl } = resolveInboxTtl(layers);
  const org = withOrgDefaults(a.settings.org, platformTtl);
  return {
    assignment: {
      id: a.id,
      org_id: a.orgId,
      team_id: a.teamId,
      domain_id: a.domainId,
      domain_name: a.domainName,
      access_level: a.accessLevel,
      domain_verified: a.domainVerified,
      team_archived: a.teamArchived,
      default_ttl_seconds: defaultTtl,
      max_ttl_seconds: maxTtl,
      max_inboxes_per_domain: resolveInboxLimit(layers),
      outbound_allowed_recipients: org.outbound.allowed_recipients,
    },
  };
}
