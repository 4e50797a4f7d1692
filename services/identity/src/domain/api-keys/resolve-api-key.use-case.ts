import type { ResolvedApiKey } from "@burnbox/contracts";
import type { IdentityDeps } from "../deps";

/** The gateway's question over RPC: the key a presented secret (by hash) stands for, if any. */
export async function resolveApiKey(deps: IdentityDeps, input: { keyHash: string }): Promise<{ key: ResolvedApiKey | null }> {
  return { key: await deps.data.repos.apiKeys.locateByHash(input.keyHash) };
}
