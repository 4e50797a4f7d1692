import type { apiKeyRoutes } from "@burnbox/contracts";
import type { Handlers } from "@burnbox/service-kit/http";
import { bulkRevokeApiKeys } from "../domain/api-keys/bulk-revoke-api-keys.use-case";
import { createApiKey } from "../domain/api-keys/create-api-key.use-case";
import { getApiKey } from "../domain/api-keys/get-api-key.use-case";
import { listApiKeys } from "../domain/api-keys/list-api-keys.use-case";
import { revokeApiKey } from "../domain/api-keys/revoke-api-key.use-case";
import { rotateApiKey } from "../domain/api-keys/rotate-api-key.use-case";
import { updateApiKey } from "../domain/api-keys/update-api-key.use-case";
import type { IdentityDeps } from "../domain/deps";

export const apiKeysHandlers = (deps: IdentityDeps): Handlers<typeof apiKeyRoutes> => ({
  createApiKey: ({ ctx, params, body }) => createApiKey(deps, ctx, { team: params, key: body }),
  listApiKeys: ({ ctx, params, query }) => listApiKeys(deps, ctx, { team: params, query }),
  bulkRevokeApiKeys: ({ ctx, params, body }) => bulkRevokeApiKeys(deps, ctx, { team: params, keyIds: body.key_ids }),
  getApiKey: ({ ctx, params }) => getApiKey(deps, ctx, { team: params, keyId: params.keyId }),
  updateApiKey: ({ ctx, params, body }) => updateApiKey(deps, ctx, { team: params, keyId: params.keyId, changes: body }),
  revokeApiKey: ({ ctx, params }) => revokeApiKey(deps, ctx, { team: params, keyId: params.keyId }),
  rotateApiKey: ({ ctx, params }) => rotateApiKey(deps, ctx, { team: params, keyId: params.keyId }),
});
