import { PaginationQuery, paginated } from "../pagination";
import { IdParams, TeamParams, errorResponses } from "../shared/common.schemas";
import { defineRoutes } from "../routes/route";
import { CreateInboxBody, ExtendInboxBody, Inbox, ListInboxesQuery } from "./inboxes.schemas";

export const inboxesRoutes = defineRoutes({ service: "inbox", tag: "Inboxes" }, [
  {
    operationId: "createInbox",
    method: "post",
    path: "/inboxes",
    auth: "user",
    scope: "team.inboxes.create",
    summary: "Create an inbox on a domain assigned to one of the caller's teams",
    request: { body: CreateInboxBody },
    responses: { 201: { description: "Created", schema: Inbox }, 400: errorResponses[400], 409: { description: "Address taken" } },
  },
  {
    operationId: "listInboxes",
    method: "get",
    path: "/inboxes",
    auth: "user",
    scope: "team.inboxes.view",
    summary: "List the inboxes the caller can see",
    request: { query: ListInboxesQuery },
    responses: { 200: { description: "Inboxes", schema: paginated(Inbox, "InboxPage") } },
  },
  {
    operationId: "getInbox",
    method: "get",
    path: "/inboxes/{id}",
    auth: "user",
    scope: "team.inboxes.view",
    summary: "Get an inbox",
    request: { params: IdParams },
    responses: { 200: { description: "The inbox", schema: Inbox }, 404: errorResponses[404] },
  },
  {
    operationId: "extendInbox",
    method: "post",
    path: "/inboxes/{id}/extend",
    auth: "user",
    scope: "team.inboxes.manage",
    summary: "Extend an inbox: expires now + duration (default its original TTL), within its maximum TTL",
    request: { params: IdParams, body: ExtendInboxBody },
    responses: { 200: { description: "The extended inbox", schema: Inbox }, 400: errorResponses[400], 404: errorResponses[404] },
  },
  {
    operationId: "deleteInbox",
    method: "delete",
    path: "/inboxes/{id}",
    auth: "user",
    scope: "team.inboxes.manage",
    summary: "Delete an inbox with its mail and files; its WebSockets are closed",
    request: { params: IdParams },
    responses: { 204: { description: "Deleted" }, 404: errorResponses[404] },
  },
  {
    operationId: "listTeamInboxes",
    method: "get",
    path: "/orgs/{orgId}/teams/{teamId}/inboxes",
    auth: "user",
    scope: "team.inboxes.view",
    summary: "List the inboxes of a team",
    request: { params: TeamParams, query: PaginationQuery },
    responses: { 200: { description: "Inboxes", schema: paginated(Inbox, "TeamInboxPage") }, 403: errorResponses[403] },
  },
] as const);
