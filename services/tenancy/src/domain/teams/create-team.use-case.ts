import { randomUUID } from "node:crypto";
import type { CreateTeamBody, Team } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import { requireOrg } from "../access/require-access";
import type { TenancyDeps } from "../deps";
import { withOrgDefaults } from "../orgs/org-settings";
import { withFreeSlug } from "../slug";

/**
 * Creates a team in an org; the creator becomes its lead. The org's row is locked while the
 * quota (`max_teams`) and the name are checked, so two creates at the limit cannot both pass.
 */
export async function createTeam(deps: TenancyDeps, ctx: RequestCtx, input: { orgId: string } & CreateTeamBody): Promise<Team> {
  const org = await requireOrg(deps, ctx, input, "org.teams.create");
  return withFreeSlug(input, (slug) =>
    deps.data.write(async (repos, events) => {
      await repos.orgs.lockForQuota(org);
      const current = await repos.orgs.get(org);
      if (!current) throw errors.notFound("organization");
      const max = withOrgDefaults(current.settings).max_teams;
      if ((await repos.teams.count(org, { all: true })) >= max) throw errors.conflict(`team limit reached (${max})`);
      if (await repos.teams.nameTaken(org, input.name)) throw errors.conflict("a team with this name already exists in this organization");
      const scope = { ...org, teamId: randomUUID() };
      const team = await repos.teams.create(scope, {
        name: input.name,
        slug,
        description: input.description ?? null,
        leadUserId: ctx.actor.user_id,
      });
      events.audit({
        ctx,
        action: "team.created",
        org_id: scope.orgId,
        team_id: scope.teamId,
        target: { type: "team", id: scope.teamId },
        metadata: { name: input.name },
      });
      return team;
    }),
  );
}
