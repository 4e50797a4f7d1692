import { PaginationQuery, paginated } from "../pagination";
import { OrgParams, errorResponses } from "../shared/common.schemas";
import { defineRoutes } from "../routes/route";
import { CreateTeamBody, Team } from "./teams.schemas";

export const teamsRoutes = defineRoutes({ service: "tenancy", tag: "Teams" }, [
  {
    operationId: "createTeam",
    method: "post",
    path: "/orgs/{orgId}/teams",
    auth: "user",
    summary: "Create a team (the caller becomes its lead)",
    request: { params: OrgParams, body: CreateTeamBody },
    responses: { 201: { description: "Created", schema: Team }, 403: errorResponses[403], 409: { description: "Slug taken" } },
  },
  {
    operationId: "listTeams",
    method: "get",
    path: "/orgs/{orgId}/teams",
    auth: "user",
    summary: "List the teams of an organization visible to the caller",
    request: { params: OrgParams, query: PaginationQuery },
    responses: { 200: { description: "Teams", schema: paginated(Team, "TeamPage") }, 404: errorResponses[404] },
  },
] as const);
