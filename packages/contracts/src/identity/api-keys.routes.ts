import { paginated } from "../pagination";
import { TeamParams, errorResponses } from "../shared/common.schemas";
import { defineRoutes } from "../routes/route";
import {
  ApiKey,
  ApiKeyParams,
  ApiKeyWithRaw,
  BulkRevokeBody,
  BulkRevokeResult,
  CreateApiKeyBody,
  ListApiKeysQuery,
  UpdateApiKeyBody,
} from "./api-keys.schemas";

const base = "/orgs/{orgId}/teams/{teamId}/api-keys";

/** Team API keys live under tenancy's paths but are issued and resolved by identity. */
export const apiKeyRoutes = defineRoutes({ service: "identity", tag: "API keys" }, [
  {
    operationId: "createApiKey",
    method: "post",
    path: base,
    auth: "user",
    scope: "team.apikeys.manage",
    summary: "Create a team API key; raw_key is returned only here",
    request: { params: TeamParams, body: CreateApiKeyBody },
    responses: { 201: { description: "Created", schema: ApiKeyWithRaw }, 400: errorResponses[400], 403: errorResponses[403] },
  },
  {
    operationId: "listApiKeys",
    method: "get",
    path: base,
    auth: "user",
    scope: "team.apikeys.view",
    summary: "List the team's API keys with usage figures",
    request: { params: TeamParams, query: ListApiKeysQuery },
    responses: { 200: { description: "Keys", schema: paginated(ApiKey, "ApiKeyPage") }, 403: errorResponses[403] },
  },
  {
    operationId: "bulkRevokeApiKeys",
    method: "post",
    path: `${base}/bulk-revoke`,
    auth: "user",
    scope: "team.apikeys.manage",
    summary: "Revoke up to 50 keys of the team",
    request: { params: TeamParams, body: BulkRevokeBody },
    responses: { 200: { description: "Revoked count and skipped ids", schema: BulkRevokeResult }, 400: errorResponses[400] },
  },
  {
    operationId: "getApiKey",
    method: "get",
    path: `${base}/{keyId}`,
    auth: "user",
    scope: "team.apikeys.view",
    summary: "Get one API key with usage figures",
    request: { params: ApiKeyParams },
    responses: { 200: { description: "The key", schema: ApiKey }, 404: errorResponses[404] },
  },
  {
    operationId: "updateApiKey",
    method: "patch",
    path: `${base}/{keyId}`,
    auth: "user",
    scope: "team.apikeys.manage",
    summary: "Change name, scopes, is_active or allowed_ips",
    request: { params: ApiKeyParams, body: UpdateApiKeyBody },
    responses: { 200: { description: "Updated", schema: ApiKey }, 404: errorResponses[404], 409: { description: "Key revoked" } },
  },
  {
    operationId: "revokeApiKey",
    method: "delete",
    path: `${base}/{keyId}`,
    auth: "user",
    scope: "team.apikeys.manage",
    summary: "Revoke a key (kept for audit with revoked_at and revoked_by)",
    request: { params: ApiKeyParams },
    responses: { 204: { description: "Revoked" }, 404: errorResponses[404] },
  },
  {
    operationId: "rotateApiKey",
    method: "post",
    path: `${base}/{keyId}/rotate`,
    auth: "user",
    scope: "team.apikeys.manage",
    summary: "Replace the key's secret; the old one stops working at once",
    request: { params: ApiKeyParams },
    responses: { 200: { description: "Rotated", schema: ApiKeyWithRaw }, 404: errorResponses[404], 409: { description: "Key revoked" } },
  },
] as const);
