import { paginated } from "../pagination";
import { TeamParams, errorResponses } from "../shared/common.schemas";
import { defineRoutes } from "../routes/route";
import {
  AssignDomainBody,
  AssignmentParams,
  DomainAssignment,
  ListAssignmentsQuery,
  MyDomain,
  UpdateAssignmentBody,
} from "./domain-assignments.schemas";
import { ActiveInboxesConflict, ForceQuery } from "./domains.schemas";

export const domainAssignmentsRoutes = defineRoutes({ service: "tenancy", tag: "Domain assignments" }, [
  {
    operationId: "assignDomain",
    method: "post",
    path: "/orgs/{orgId}/teams/{teamId}/domains",
    auth: "user",
    summary: "Assign a verified domain to a team",
    request: { params: TeamParams, body: AssignDomainBody },
    responses: {
      201: { description: "Assigned", schema: DomainAssignment },
      400: errorResponses[400],
      409: { description: "Domain not verified, already assigned, or team archived" },
    },
  },
  {
    operationId: "listTeamDomains",
    method: "get",
    path: "/orgs/{orgId}/teams/{teamId}/domains",
    auth: "user",
    scope: "team.domains.view",
    summary: "List the domains assigned to a team",
    request: { params: TeamParams, query: ListAssignmentsQuery },
    responses: {
      200: { description: "Assignments", schema: paginated(DomainAssignment, "DomainAssignmentPage") },
      404: errorResponses[404],
    },
  },
  {
    operationId: "updateDomainAssignment",
    method: "patch",
    path: "/orgs/{orgId}/teams/{teamId}/domains/{domainId}",
    auth: "user",
    scope: "team.domains.manage",
    summary: "Change a team's access level or settings on an assigned domain",
    request: { params: AssignmentParams, body: UpdateAssignmentBody },
    responses: {
      200: { description: "Assignment", schema: DomainAssignment },
      400: errorResponses[400],
      403: errorResponses[403],
      404: errorResponses[404],
      409: { description: "Team archived" },
    },
  },
  {
    operationId: "unassignDomain",
    method: "delete",
    path: "/orgs/{orgId}/teams/{teamId}/domains/{domainId}",
    auth: "user",
    scope: "team.domains.manage",
    summary: "Take a domain from a team (force=true even with active inboxes)",
    request: { params: AssignmentParams, query: ForceQuery },
    responses: {
      204: { description: "Unassigned" },
      403: errorResponses[403],
      404: errorResponses[404],
      409: { description: "Active inboxes", schema: ActiveInboxesConflict },
    },
  },
  {
    operationId: "listMyDomains",
    method: "get",
    path: "/my/domains",
    auth: "user",
    scope: "team.domains.view",
    summary: "The domains assigned to the caller's teams, with each team's name and the resolved inbox TTL limits",
    request: { query: ListAssignmentsQuery },
    responses: { 200: { description: "Assignments", schema: paginated(MyDomain, "MyDomainPage") }, 400: errorResponses[400] },
  },
] as const);
