import type { IdentityDeps } from "../deps";

/** Hard-deletes expired keys (spec 3.1); revoked and disabled keys are kept for audit. */
export async function deleteExpiredApiKeys(deps: IdentityDeps): Promise<number> {
  // in a write, so that the gateways' copies of the deleted keys go with the commit
  const hashes = await deps.data.write((repos) => repos.apiKeys.deleteExpired(new Date(deps.now())));
  return hashes.length;
}
