import { z } from "../zod";
import { BULK_MAX_IDS, PaginationQuery, paginated } from "../pagination";
import { TEAM_PERMISSIONS } from "../permissions";
import { Duration, TeamParams, Timestamp, Uuid, errorResponses } from "./common";
import { defineRoutes } from "./route";

/** Valid scopes are the team permissions of the catalog: a new team permission is a new scope. */
export const ApiKeyScope = z.string().refine((s) => (TEAM_PERMISSIONS as readonly string[]).includes(s), {
  message: `unknown scope; valid scopes: ${TEAM_PERMISSIONS.join(", ")}`,
});

export const API_KEY_PREFIX_LENGTH = 11;

export const ApiKey = z
  .object({
    id: Uuid,
    team_id: Uuid,
    created_by: Uuid,
    name: z.string(),
    key_prefix: z.string().openapi({ description: "`bb_` and the first 8 hex characters of the key, for display" }),
    scopes: z.array(z.string()),
    is_active: z.boolean(),
    allowed_ips: z.array(z.string()),
    expires_at: Timestamp.nullable(),
    revoked_at: Timestamp.nullable(),
    revoked_by: Uuid.nullable(),
    request_count: z.number().int(),
    last_used_at: Timestamp.nullable(),
    last_used_ip: z.string().nullable(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .openapi("ApiKey");
export type ApiKey = z.infer<typeof ApiKey>;

export const ApiKeyWithRaw = ApiKey.extend({
  raw_key: z.string().openapi({ description: "The key itself; returned only by create and rotate" }),
}).openapi("ApiKeyWithRawKey");

/** An IP address or CIDR range (v4 or v6); checked precisely by the service. */
const IpOrCidr = z.string().trim().min(2).max(64);

export const CreateApiKeyBody = z
  .object({
    name: z.string().trim().min(1).max(100),
    scopes: z
      .array(ApiKeyScope)
      .min(1)
      .max(50)
      .transform((s) => [...new Set(s)]),
    expires_in: Duration.optional().openapi({ description: "Lifetime such as 2160h or 90d; no expiry when omitted" }),
    allowed_ips: z.array(IpOrCidr).max(100).default([]),
  })
  .openapi("CreateApiKeyRequest");
export type CreateApiKeyBody = z.infer<typeof CreateApiKeyBody>;

export const UpdateApiKeyBody = z
  .object({
    name: z.string().trim().min(1).max(100).optional(),
    scopes: z
      .array(ApiKeyScope)
      .min(1)
      .max(50)
      .transform((s) => [...new Set(s)])
      .optional(),
    is_active: z.boolean().optional(),
    allowed_ips: z.array(IpOrCidr).max(100).optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), { message: "at least one field is required" })
  .openapi("UpdateApiKeyRequest");
export type UpdateApiKeyBody = z.infer<typeof UpdateApiKeyBody>;

export const BulkRevokeBody = z.object({ key_ids: z.array(Uuid).min(1).max(BULK_MAX_IDS) }).openapi("BulkRevokeApiKeysRequest");
export const BulkRevokeResult = z.object({ revoked: z.number().int(), skipped: z.array(Uuid) }).openapi("BulkRevokeApiKeysResult");

export const ListApiKeysQuery = PaginationQuery.extend({
  include_revoked: z
    .enum(["true", "false"])
    .optional()
    .transform((v) => v === "true")
    .openapi({ type: "boolean" }),
});

export const ApiKeyParams = TeamParams.extend({ keyId: Uuid });

const base = "/orgs/{orgId}/teams/{teamId}/api-keys";
const common = { service: "identity", auth: "user", tag: "API keys" } as const;

export const apiKeyRoutes = defineRoutes([
  {
    ...common,
    operationId: "createApiKey",
    method: "post",
    path: base,
    scope: "team.apikeys.manage",
    summary: "Create a team API key; raw_key is returned only here",
    request: { params: TeamParams, body: CreateApiKeyBody },
    responses: { 201: { description: "Created", schema: ApiKeyWithRaw }, 400: errorResponses[400], 403: errorResponses[403] },
  },
  {
    ...common,
    operationId: "listApiKeys",
    method: "get",
    path: base,
    scope: "team.apikeys.view",
    summary: "List the team's API keys with usage figures",
    request: { params: TeamParams, query: ListApiKeysQuery },
    responses: { 200: { description: "Keys", schema: paginated(ApiKey, "ApiKeyPage") }, 403: errorResponses[403] },
  },
  {
    ...common,
    operationId: "bulkRevokeApiKeys",
    method: "post",
    path: `${base}/bulk-revoke`,
    scope: "team.apikeys.manage",
    summary: "Revoke up to 50 keys of the team",
    request: { params: TeamParams, body: BulkRevokeBody },
    responses: { 200: { description: "Revoked count and skipped ids", schema: BulkRevokeResult }, 400: errorResponses[400] },
  },
  {
    ...common,
    operationId: "getApiKey",
    method: "get",
    path: `${base}/{keyId}`,
    scope: "team.apikeys.view",
    summary: "Get one API key with usage figures",
    request: { params: ApiKeyParams },
    responses: { 200: { description: "The key", schema: ApiKey }, 404: errorResponses[404] },
  },
  {
    ...common,
    operationId: "updateApiKey",
    method: "patch",
    path: `${base}/{keyId}`,
    scope: "team.apikeys.manage",
    summary: "Change name, scopes, is_active or allowed_ips",
    request: { params: ApiKeyParams, body: UpdateApiKeyBody },
    responses: { 200: { description: "Updated", schema: ApiKey }, 404: errorResponses[404], 409: { description: "Key revoked" } },
  },
  {
    ...common,
    operationId: "revokeApiKey",
    method: "delete",
    path: `${base}/{keyId}`,
    scope: "team.apikeys.manage",
    summary: "Revoke a key (kept for audit with revoked_at and revoked_by)",
    request: { params: ApiKeyParams },
    responses: { 204: { description: "Revoked" }, 404: errorResponses[404] },
  },
  {
    ...common,
    operationId: "rotateApiKey",
    method: "post",
    path: `${base}/{keyId}/rotate`,
    scope: "team.apikeys.manage",
    summary: "Replace the key's secret; the old one stops working at once",
    request: { params: ApiKeyParams },
    responses: { 200: { description: "Rotated", schema: ApiKeyWithRaw }, 404: errorResponses[404], 409: { description: "Key revoked" } },
  },
] as const);
