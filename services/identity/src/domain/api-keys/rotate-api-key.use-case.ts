import type { ApiKey } from "@burnbox/contracts";
import type { TeamScope } from "@burnbox/service-kit/data";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import type { IdentityDeps } from "../deps";
import { requireKey, requireTeamPermission } from "./key-access";
import { withPendingUsage } from "./key-cache";
import { newRawKey } from "./key-secret";

/** A new secret for the same key; the old one is refused on the very next request. */
export async function rotateApiKey(
  deps: IdentityDeps,
  ctx: RequestCtx,
  input: { team: TeamScope; keyId: string },
): Promise<ApiKey & { raw_key: string }> {
  const { team } = input;
  await requireTeamPermission(deps, ctx, team, "team.apikeys.manage");
  const { key } = await requireKey(deps, team, input.keyId);
  if (key.revoked_at) throw errors.conflict("API key is revoked");
  const { raw, hash, prefix } = newRawKey();
  const rotated = await deps.data.write(async (repos, events) => {
    const rotated = await repos.apiKeys.rotate(team, key.id, { keyHash: hash, keyPrefix: prefix });
    events.audit({
      ctx,
      action: "apikey.rotated",
      org_id: team.orgId,
      team_id: team.teamId,
      target: { type: "api_key", id: key.id, name: key.name },
      metadata: { key_prefix: prefix },
    });
    return rotated;
  });
  const [shown] = await withPendingUsage(deps, [rotated]);
  return { ...(shown ?? rotated), raw_key: raw };
}
