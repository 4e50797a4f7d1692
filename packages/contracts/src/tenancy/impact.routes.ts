import { TeamParams, errorResponses } from "../shared/common.schemas";
import { defineRoutes } from "../routes/route";
import { DomainParams } from "./domains.schemas";
import { DomainImpact, TeamImpact, TransferDomainBody, TransferDomainResult } from "./impact.schemas";

export const domainImpactRoutes = defineRoutes({ service: "tenancy", tag: "Domains" }, [
  {
    operationId: "getDomainImpact",
    method: "get",
    path: "/orgs/{orgId}/domains/{domainId}/impact",
    auth: "user",
    summary: "What deleting the domain would touch: inboxes, emails, assignments, webhooks",
    request: { params: DomainParams },
    responses: { 200: { description: "Impact", schema: DomainImpact }, 404: errorResponses[404] },
  },
  {
    operationId: "transferDomain",
    method: "post",
    path: "/orgs/{orgId}/domains/{domainId}/transfer",
    auth: "system_admin",
    summary: "Move a domain to another organization (its assignments are removed, its active inboxes deactivated)",
    request: { params: DomainParams, body: TransferDomainBody },
    responses: {
      200: { description: "Transferred", schema: TransferDomainResult },
      400: errorResponses[400],
      404: errorResponses[404],
      409: { description: "The target organization is at max_domains" },
    },
  },
] as const);

export const teamImpactRoutes = defineRoutes({ service: "tenancy", tag: "Teams" }, [
  {
    operationId: "getTeamImpact",
    method: "get",
    path: "/orgs/{orgId}/teams/{teamId}/impact",
    auth: "user",
    scope: "team.view",
    summary: "What deleting the team would touch: members, inboxes, emails, assignments, webhooks, API keys",
    request: { params: TeamParams },
    responses: { 200: { description: "Impact", schema: TeamImpact }, 404: errorResponses[404] },
  },
] as const);
