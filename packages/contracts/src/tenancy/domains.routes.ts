import { OrgParams, errorResponses } from "../shared/common.schemas";
import { defineRoutes } from "../routes/route";
import { CreateDomainBody, Domain } from "./domains.schemas";

export const domainsRoutes = defineRoutes({ service: "tenancy", tag: "Domains" }, [
  {
    operationId: "createDomain",
    method: "post",
    path: "/orgs/{orgId}/domains",
    auth: "user",
    summary: "Add a domain to an organization",
    request: { params: OrgParams, body: CreateDomainBody },
    responses: { 201: { description: "Created", schema: Domain }, 403: errorResponses[403], 409: { description: "Domain exists" } },
  },
] as const);
