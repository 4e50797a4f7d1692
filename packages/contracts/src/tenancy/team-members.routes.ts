import { paginated } from "../pagination";
import { TeamParams, errorResponses } from "../shared/common.schemas";
import { defineRoutes } from "../routes/route";
import { ChangeRoleBody } from "./orgs.schemas";
import {
  AddTeamMemberBody,
  BulkAddTeamMembersBody,
  BulkAddTeamMembersResult,
  BulkRemoveTeamMembersBody,
  BulkRemoveTeamMembersResult,
  ListTeamMembersQuery,
  TeamMember,
  TeamMemberParams,
} from "./teams.schemas";

export const teamMembersRoutes = defineRoutes({ service: "tenancy", tag: "Team members" }, [
  {
    operationId: "listTeamMembers",
    method: "get",
    path: "/orgs/{orgId}/teams/{teamId}/members",
    auth: "user",
    scope: "team.members.view",
    summary: "List a team's members",
    request: { params: TeamParams, query: ListTeamMembersQuery },
    responses: { 200: { description: "Members", schema: paginated(TeamMember, "TeamMemberPage") }, 404: errorResponses[404] },
  },
  {
    operationId: "addTeamMember",
    method: "post",
    path: "/orgs/{orgId}/teams/{teamId}/members",
    auth: "user",
    scope: "team.members.manage",
    summary: "Add a member of the organization to the team",
    request: { params: TeamParams, body: AddTeamMemberBody },
    responses: {
      201: { description: "Added", schema: TeamMember },
      400: errorResponses[400],
      403: errorResponses[403],
      404: { description: "Not a member of the organization" },
      409: { description: "Already a member or team archived" },
    },
  },
  {
    operationId: "changeTeamMemberRole",
    method: "patch",
    path: "/orgs/{orgId}/teams/{teamId}/members/{userId}",
    auth: "user",
    scope: "team.members.role",
    summary: "Change a team member's role",
    request: { params: TeamMemberParams, body: ChangeRoleBody },
    responses: {
      200: { description: "Member", schema: TeamMember },
      400: errorResponses[400],
      403: { description: "Rank too low" },
      404: errorResponses[404],
      409: { description: "Last lead" },
    },
  },
  {
    operationId: "removeTeamMember",
    method: "delete",
    path: "/orgs/{orgId}/teams/{teamId}/members/{userId}",
    auth: "user",
    scope: "team.members.manage",
    summary: "Remove a member from the team",
    request: { params: TeamMemberParams },
    responses: {
      204: { description: "Removed" },
      403: { description: "Rank too low" },
      404: errorResponses[404],
      409: { description: "Last lead" },
    },
  },
  {
    operationId: "bulkAddTeamMembers",
    method: "post",
    path: "/orgs/{orgId}/teams/{teamId}/members/bulk-add",
    auth: "user",
    scope: "team.members.manage",
    summary: "Add up to 50 members of the organization to the team; the others are skipped with a reason",
    request: { params: TeamParams, body: BulkAddTeamMembersBody },
    responses: {
      200: { description: "Added and skipped", schema: BulkAddTeamMembersResult },
      400: errorResponses[400],
      409: { description: "Team archived" },
    },
  },
  {
    operationId: "bulkRemoveTeamMembers",
    method: "post",
    path: "/orgs/{orgId}/teams/{teamId}/members/bulk-remove",
    auth: "user",
    scope: "team.members.manage",
    summary: "Remove up to 50 members from the team (the whole request is a 409 if it would remove the last lead)",
    request: { params: TeamParams, body: BulkRemoveTeamMembersBody },
    responses: {
      200: { description: "Removed and skipped", schema: BulkRemoveTeamMembersResult },
      400: errorResponses[400],
      409: { description: "Last lead" },
    },
  },
] as const);
