import type { teamsRoutes } from "@burnbox/contracts";
import type { Handlers } from "@burnbox/service-kit/http";
import type { TenancyDeps } from "../domain/deps";
import { archiveTeam } from "../domain/teams/archive-team.use-case";
import { createTeam } from "../domain/teams/create-team.use-case";
import { deleteTeam } from "../domain/teams/delete-team.use-case";
import { getTeam } from "../domain/teams/get-team.use-case";
import { leaveTeam } from "../domain/teams/leave-team.use-case";
import { listTeams } from "../domain/teams/list-teams.use-case";
import { restoreTeam } from "../domain/teams/restore-team.use-case";
import { transferTeam } from "../domain/teams/transfer-team.use-case";
import { updateTeam } from "../domain/teams/update-team.use-case";

export const teamsHandlers = (deps: TenancyDeps): Handlers<typeof teamsRoutes> => ({
  createTeam: ({ ctx, params, body }) => createTeam(deps, ctx, { ...params, ...body }),
  listTeams: ({ ctx, params, query }) => listTeams(deps, ctx, { ...params, ...query }),
  getTeam: ({ ctx, params }) => getTeam(deps, ctx, params),
  updateTeam: ({ ctx, params, body }) => updateTeam(deps, ctx, { ...params, ...body }),
  deleteTeam: ({ ctx, params }) => deleteTeam(deps, ctx, params),
  archiveTeam: ({ ctx, params }) => archiveTeam(deps, ctx, params),
  restoreTeam: ({ ctx, params }) => restoreTeam(deps, ctx, params),
  leaveTeam: ({ ctx, params }) => leaveTeam(deps, ctx, params),
  transferTeam: ({ ctx, params, body }) => transferTeam(deps, ctx, { ...params, ...body }),
});
