import type { IdentityDeps } from "../deps";
import { publishKeyState } from "./key-cache";

/** Hard-deletes expired keys (spec 3.1); revoked and disabled keys are kept for audit. */
export async function deleteExpiredApiKeys(deps: IdentityDeps): Promise<number> {
  const hashes = await deps.data.repos.apiKeys.deleteExpired(new Date(deps.now()));
  await publishKeyState(
    deps,
    hashes.map((hash) => ({ hash, state: null })),
  ).catch((err: unknown) => deps.logger.warn({ err }, "could not clear deleted keys from the cache"));
  return hashes.length;
}
