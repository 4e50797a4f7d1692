import type { Handlers } from "@burnbox/service-kit";
import type { TenancyDeps } from "../domain/deps";
import { createTeam } from "../domain/teams/create-team.use-case";
import { listTeams } from "../domain/teams/list-teams.use-case";
import type { TeamsRoutes } from "./routes";

export const teamsHandlers = (deps: TenancyDeps): Handlers<TeamsRoutes> => ({
  createTeam: ({ ctx, params, body }) => createTeam(deps, ctx, { ...params, ...body }),
  listTeams: ({ ctx, params, query }) => listTeams(deps, ctx, { ...params, ...query }),
});
