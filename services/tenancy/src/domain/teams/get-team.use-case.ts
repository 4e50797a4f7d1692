import type { Team } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import { requireTeam } from "../access/require-access";
import type { TenancyDeps } from "../deps";

export async function getTeam(deps: TenancyDeps, ctx: RequestCtx, input: { orgId: string; teamId: string }): Promise<Team> {
  const scope = await requireTeam(deps, ctx, input, "team.view");
  const team = await deps.data.repos.teams.get(scope);
  if (!team) throw errors.notFound("team");
  return team;
}
