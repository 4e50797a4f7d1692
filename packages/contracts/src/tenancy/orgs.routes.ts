import { OrgParams, errorResponses } from "../shared/common.schemas";
import { defineRoutes } from "../routes/route";
import { CreateOrgBody, Org } from "./orgs.schemas";

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
] as const);
