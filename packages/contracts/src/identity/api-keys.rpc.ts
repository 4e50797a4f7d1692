import { z } from "../zod";
import { MoveTeamReply, MoveTeamRequest } from "../shared/team-move.schemas";

/** The gateway resolves a `bb_` credential by the SHA-256 (hex) of the whole key. */
export const ResolveApiKeyRequest = z.object({ key_hash: z.string().regex(/^[0-9a-f]{64}$/) });
export const ResolvedApiKey = z.object({
  id: z.string().uuid(),
  team_id: z.string().uuid(),
  scopes: z.array(z.string()),
  is_active: z.boolean(),
  expires_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
  allowed_ips: z.array(z.string()),
  creator: z.object({ user_id: z.string().uuid(), email: z.string() }),
});
export type ResolvedApiKey = z.infer<typeof ResolvedApiKey>;
export const ResolveApiKeyReply = z.object({ key: ResolvedApiKey.nullable() });
/**
 * Tenancy has identity refuse an org's or team's API keys before answering its deletion (read
 * your writes on every gateway): the keys are removed, the gateways' Redis entries say "no such
 * key" and every gateway drops its in-memory copies. `team_id` null: the whole org.
 */
export const RemoveTenantKeysRequest = z.object({ org_id: z.string().uuid(), team_id: z.string().uuid().nullable() });
export const RemoveTenantKeysReply = z.object({ removed: z.number().int() });

/** Identity: API keys resolved for the gateway, and removed or moved with their tenant for tenancy. */
export const apiKeysRpc = {
  resolveApiKey: { name: "identity.resolve_api_key", request: ResolveApiKeyRequest, reply: ResolveApiKeyReply },
  removeTenantKeys: { name: "identity.remove_tenant_keys", request: RemoveTenantKeysRequest, reply: RemoveTenantKeysReply },
  moveTeamApiKeys: { name: "identity.move_team", request: MoveTeamRequest, reply: MoveTeamReply },
} as const;
