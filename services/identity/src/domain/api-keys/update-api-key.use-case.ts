import type { ApiKey, UpdateApiKeyBody } from "@burnbox/contracts";
import type { TeamScope } from "@burnbox/service-kit/data";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import type { IdentityDeps } from "../deps";
import { requireGrantable, requireKey, requireTeamPermission } from "./key-access";
import { withPendingUsage } from "./key-cache";
import { normalizeAllowedIps } from "./key-secret";

/** Changes a key; the gateway's cache holds the new state before the answer. A revoked key is a 409. */
export async function updateApiKey(
  deps: IdentityDeps,
  ctx: RequestCtx,
  input: { team: TeamScope; keyId: string; changes: UpdateApiKeyBody },
): Promise<ApiKey> {
  const { team, changes } = input;
  await requireTeamPermission(deps, ctx, team, "team.apikeys.manage");
  const { key } = await requireKey(deps, team, input.keyId);
  if (key.revoked_at) throw errors.conflict("API key is revoked");
  const allowedIps = changes.allowed_ips ? normalizeAllowedIps(changes.allowed_ips) : undefined;
  if (changes.scopes) await requireGrantable(deps, ctx, team, changes.scopes);
  const updated = await deps.data.write(async (repos, events) => {
    const updated = await repos.apiKeys.update(team, key.id, {
      name: changes.name,
      scopes: changes.scopes,
      isActive: changes.is_active,
      allowedIps,
    });
    events.audit({
      ctx,
      action: "apikey.updated",
      org_id: team.orgId,
      team_id: team.teamId,
      target: { type: "api_key", id: key.id, name: updated.name },
      metadata: { fields: Object.keys(changes).filter((k) => changes[k as keyof UpdateApiKeyBody] !== undefined) },
    });
    return updated;
  });
  const [shown] = await withPendingUsage(deps, [updated]);
  return shown ?? updated;
}
