import { randomUUID } from "node:crypto";
import type { CreateTeamBody, Team } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit";
import { requireOrg } from "../access/require-access";
import type { TenancyDeps } from "../deps";
import { withFreeSlug } from "../slug";

/** Creates a team in an org; the creator becomes its lead. */
export async function createTeam(deps: TenancyDeps, ctx: RequestCtx, input: { orgId: string } & CreateTeamBody): Promise<Team> {
  const org = await requireOrg(deps, ctx, input, "org.teams.create");
  return withFreeSlug(input, (slug) =>
    deps.data.write(async (repos, events) => {
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
