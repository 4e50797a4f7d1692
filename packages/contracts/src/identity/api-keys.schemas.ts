import { z } from "../zod";
import { BULK_MAX_IDS, PaginationQuery } from "../pagination";
import { TEAM_PERMISSIONS } from "../permissions";
import { Duration, TeamParams, Timestamp, Uuid, atLeastOneField } from "../shared/common.schemas";

/**
 * A scope is a team permission key: the built-in ones, or one a custom team role added (contract
 * notes: a new team key becomes a valid API-key scope at once). The shape is checked here; identity
 * checks the key is known (400) and held by the creator (403) against tenancy's catalog.
 */
export const ApiKeyScope = z
  .string()
  .max(100)
  .regex(/^team\.[a-z_]+(\.[a-z_]+)*$/, {
    message: `unknown scope; valid scopes: ${TEAM_PERMISSIONS.join(", ")} and the team permissions of custom roles`,
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

const KeyName = z.string().trim().min(1).max(100);
/** Duplicates are dropped rather than refused. */
const Scopes = z
  .array(ApiKeyScope)
  .min(1)
  .max(50)
  .transform((s) => [...new Set(s)]);
/** IP addresses or CIDR ranges (v4 or v6); checked precisely by the service. */
const AllowedIps = z.array(z.string().trim().min(2).max(64)).max(100);

export const CreateApiKeyBody = z
  .object({
    name: KeyName,
    scopes: Scopes,
    expires_in: Duration.optional().openapi({ description: "Lifetime such as 2160h or 90d; no expiry when omitted" }),
    allowed_ips: AllowedIps.default([]),
  })
  .openapi("CreateApiKeyRequest");
export type CreateApiKeyBody = z.infer<typeof CreateApiKeyBody>;

export const UpdateApiKeyBody = atLeastOneField(
  z.object({
    name: KeyName.optional(),
    scopes: Scopes.optional(),
    is_active: z.boolean().optional(),
    allowed_ips: AllowedIps.optional(),
  }),
).openapi("UpdateApiKeyRequest");
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
