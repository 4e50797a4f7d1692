import { PaginationQuery, paginated } from "../pagination";
import { MessageBody, OrgParams, errorResponses } from "../shared/common.schemas";
import { defineRoutes } from "../routes/route";
import {
  ActiveInboxesConflict,
  CreateDomainBody,
  Domain,
  DomainVerification,
  DomainParams,
  ForceQuery,
  ListDomainsQuery,
  UpdateDomainBody,
} from "./domains.schemas";

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
  {
    operationId: "listDomains",
    method: "get",
    path: "/orgs/{orgId}/domains",
    auth: "user",
    summary: "List an organization's domains",
    request: { params: OrgParams, query: ListDomainsQuery },
    responses: { 200: { description: "Domains", schema: paginated(Domain, "DomainPage") }, 404: errorResponses[404] },
  },
  {
    operationId: "getDomain",
    method: "get",
    path: "/orgs/{orgId}/domains/{domainId}",
    auth: "user",
    summary: "Get a domain",
    request: { params: DomainParams },
    responses: { 200: { description: "The domain", schema: Domain }, 404: errorResponses[404] },
  },
  {
    operationId: "updateDomain",
    method: "patch",
    path: "/orgs/{orgId}/domains/{domainId}",
    auth: "user",
    summary: "Change a domain's description or settings",
    request: { params: DomainParams, body: UpdateDomainBody },
    responses: {
      200: { description: "The domain", schema: Domain },
      400: errorResponses[400],
      403: errorResponses[403],
      404: errorResponses[404],
    },
  },
  {
    operationId: "deleteDomain",
    method: "delete",
    path: "/orgs/{orgId}/domains/{domainId}",
    auth: "user",
    summary: "Delete a domain (force=true even with active inboxes)",
    request: { params: DomainParams, query: ForceQuery },
    responses: {
      200: { description: "Deleted", schema: MessageBody },
      403: errorResponses[403],
      404: errorResponses[404],
      409: { description: "Active inboxes", schema: ActiveInboxesConflict },
    },
  },
  {
    operationId: "verifyDomain",
    method: "post",
    path: "/orgs/{orgId}/domains/{domainId}/verify",
    auth: "user",
    summary: "Check the domain's DNS now (MX must point at mx_target, a TXT record must equal verification_record)",
    request: { params: DomainParams },
    responses: { 200: { description: "The domain after the check", schema: Domain }, 403: errorResponses[403], 404: errorResponses[404] },
  },
  {
    operationId: "getDomainVerificationHistory",
    method: "get",
    path: "/orgs/{orgId}/domains/{domainId}/verification-history",
    auth: "user",
    summary: "The domain's DNS checks, newest first",
    request: { params: DomainParams, query: PaginationQuery },
    responses: {
      200: { description: "Checks", schema: paginated(DomainVerification, "DomainVerificationPage") },
      404: errorResponses[404],
    },
  },
] as const);
