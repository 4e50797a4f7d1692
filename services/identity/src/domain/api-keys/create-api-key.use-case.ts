import { randomUUID } from "node:crypto";
import { parseDurationMs, type ApiKey, type CreateApiKeyBody } from "@burnbox/contracts";
import type { TeamScope } from "@burnbox/service-kit/data";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import type { IdentityDeps } from "../deps";
import { requireGrantable, requireTeamPermission } from "./key-access";
import { newRawKey, normalizeAllowedIps } from "./key-secret";

/** Creates a team key with scopes its creator holds; the raw key is in this answer only. */
export async function createApiKey(
  deps: IdentityDeps,
  ctx: RequestCtx,
  input: { team: TeamScope; key: CreateApiKeyBody },
): Promise<ApiKey & { raw_key: string }> {
  const { team, key } = input;
  await requireTeamPermission(deps, ctx, team, "team.apikeys.manage");
  const allowedIps = normalizeAllowedIps(key.allowed_ips);
  await requireGrantable(deps, ctx, team, key.scopes);
  const expiresAt = key.expires_in ? new Date(deps.now() + parseDurationMs(key.expires_in)) : null;
  if (expiresAt && expiresAt.getTime() <= deps.now()) throw errors.validation("expires_in must be positive");
  const { raw, hash, prefix } = newRawKey();
  const id = randomUUID();
  const created = await deps.data.write(async (repos, events) => {
    // an org or team removed meanwhile answers like an unknown team (see lockTenants)
    if (await repos.tenants.lockForCreate(team)) throw errors.notFound("team");
    const created = await repos.apiKeys.create(team, {
      id,
      createdBy: ctx.actor.user_id,
      name: key.name,
      keyPrefix: prefix,
      keyHash: hash,
      scopes: key.scopes,
      allowedIps,
      expiresAt,
    });
    events.audit({
      ctx,
      action: "apikey.created",
      org_id: team.orgId,
      team_id: team.teamId,
      target: { type: "api_key", id },
      metadata: { name: key.name, scopes: key.scopes, key_prefix: prefix },
    });
    return created;
  });
  return { ...created, raw_key: raw };
}
