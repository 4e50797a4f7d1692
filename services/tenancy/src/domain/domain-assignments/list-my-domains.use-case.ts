import type { MyDomain, Page, PaginationQuery } from "@burnbox/contracts";
import { paginate } from "@burnbox/service-kit/data";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { listActorTeams } from "../access/list-actor-teams.use-case";
import type { TenancyDeps } from "../deps";
import { withOrgDefaults } from "../orgs/org-settings";
import { durationOf, resolveInboxTtl } from "./inbox-ttl";

/** The domains assigned to the teams where the caller may view domains (a key: its own team), with the resolved TTLs. */
export async function listMyDomains(deps: TenancyDeps, ctx: RequestCtx, input: PaginationQuery): Promise<Page<MyDomain>> {
  // the teams come from the RBAC rules themselves: nothing else is listed
  const { teams } = await listActorTeams(deps, { actor: ctx.actor, permission: "team.domains.view" });
  const teamIds = teams.map((t) => t.team_id);
  const { domainAssignments } = deps.data.repos;
  return paginate(input, {
    rows: (window) => domainAssignments.listForTeams(teamIds, window),
    count: () => domainAssignments.countForTeams(teamIds),
    map: (rows) =>
      rows.map((r) => {
        const platformTtl = deps.platformTtl.current();
        const org = withOrgDefaults(r.settings.org, platformTtl);
        const ttl = resolveInboxTtl([platformTtl, org, r.settings.domain, r.settings.team, r.settings.assignment]);
        return {
          ...r.assignment,
          team_name: r.teamName,
          default_ttl: durationOf(Math.min(ttl.defaultTtl ?? 600, ttl.maxTtl ?? 86_400)),
          max_ttl: durationOf(ttl.maxTtl ?? 86_400),
        };
      }),
  });
}
