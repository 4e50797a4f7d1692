import { PaginationQuery, paginated } from "../pagination";
import { MessageBody, OrgParams, errorResponses } from "../shared/common.schemas";
import { defineRoutes } from "../routes/route";
import { CreateOrgBody, DeleteOrgBody, Org, OrgSettings, OrgWithRole, UpdateOrgBody, UpdateOrgSettingsBody } from "./orgs.schemas";

export const orgsRoutes = defineRoutes({ service: "tenancy", tag: "Orgs" }, [
  {
    operationId: "createOrg",
    method: "post",
    path: "/orgs",
    auth: "user",
    summary: "Create an organization (the caller becomes its owner)",
    request: { body: CreateOrgBody },
    responses: { 201: { description: "Created", schema: Org }, 400: errorResponses[400], 409: { description: "Slug taken" } },
  },
  {
    operationId: "getOrg",
    method: "get",
    path: "/orgs/{orgId}",
    auth: "user",
    summary: "Get an organization",
    request: { params: OrgParams },
    responses: { 200: { description: "The org", schema: Org }, 404: errorResponses[404] },
  },
  {
    operationId: "listOrgs",
    method: "get",
    path: "/orgs",
    auth: "user",
    summary: "List the organizations the caller belongs to, with the caller's role",
    request: { query: PaginationQuery },
    responses: { 200: { description: "Orgs", schema: paginated(OrgWithRole, "OrgPage") }, 400: errorResponses[400] },
  },
  {
    operationId: "updateOrg",
    method: "patch",
    path: "/orgs/{orgId}",
    auth: "user",
    summary: "Rename an organization or change its logo (the slug never changes)",
    request: { params: OrgParams, body: UpdateOrgBody },
    responses: {
      200: { description: "The org", schema: Org },
      400: errorResponses[400],
      403: errorResponses[403],
      404: errorResponses[404],
    },
  },
  {
    operationId: "deleteOrg",
    method: "delete",
    path: "/orgs/{orgId}",
    auth: "user",
    summary: "Delete an organization and all its data, confirmed by the caller's password (or its slug for SSO-only accounts)",
    request: { params: OrgParams, body: DeleteOrgBody },
    responses: {
      200: { description: "Deleted", schema: MessageBody },
      400: errorResponses[400],
      403: { description: "Wrong confirmation or insufficient permissions" },
      404: errorResponses[404],
    },
  },
  {
    operationId: "getOrgSettings",
    method: "get",
    path: "/orgs/{orgId}/settings",
    auth: "user",
    summary: "Get an organization's settings",
    request: { params: OrgParams },
    responses: { 200: { description: "Settings", schema: OrgSettings }, 404: errorResponses[404] },
  },
  {
    operationId: "updateOrgSettings",
    method: "patch",
    path: "/orgs/{orgId}/settings",
    auth: "user",
    summary: "Change some of an organization's settings (merged)",
    request: { params: OrgParams, body: UpdateOrgSettingsBody },
    responses: {
      200: { description: "Settings", schema: OrgSettings },
      400: errorResponses[400],
      403: errorResponses[403],
      404: errorResponses[404],
    },
  },
  {
    operationId: "replaceOrgSettings",
    method: "put",
    path: "/orgs/{orgId}/settings",
    auth: "user",
    summary: "Change an organization's settings (merged, as PATCH)",
    request: { params: OrgParams, body: UpdateOrgSettingsBody },
    responses: {
      200: { description: "Settings", schema: OrgSettings },
      400: errorResponses[400],
      403: errorResponses[403],
      404: errorResponses[404],
    },
  },
] as const);
