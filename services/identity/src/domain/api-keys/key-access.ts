import { RpcName, type Permission } from "@burnbox/contracts";
import type { TeamScope } from "@burnbox/service-kit/data";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { RpcError, rpcRequest } from "@burnbox/service-kit/messaging";
import { errors } from "@burnbox/service-kit/runtime";
import { authorize } from "@burnbox/service-kit/security";
import type { IdentityDeps } from "../deps";

/** 404 when the caller may not see the team, 403 when they lack the permission in it. */
export async function requireTeamPermission(deps: IdentityDeps, ctx: RequestCtx, team: TeamScope, permission: Permission): Promise<void> {
  await authorize(deps.nc, deps.config.nats.namespace, { actor: ctx.actor, org_id: team.orgId, team_id: team.teamId, permission }, "team");
}

/**
 * A key's scopes are team permission keys tenancy knows: the built-in ones and those custom team
 * roles added (a new one is a valid scope at once), else 400; and the creator must hold each in
 * that team, else 403.
 */
export async function requireGrantable(deps: IdentityDeps, ctx: RequestCtx, team: TeamScope, scopes: string[]): Promise<void> {
  const { known, held } = await rpcRequest(deps.nc, deps.config.nats.namespace, RpcName.teamScopes, {
    actor: ctx.actor,
    org_id: team.orgId,
    team_id: team.teamId,
  }).catch((err: unknown) => {
    if (err instanceof RpcError) throw errors.unavailable("authorization service unavailable");
    throw err;
  });
  const unknown = scopes.filter((s) => !known.includes(s));
  if (unknown.length > 0) throw errors.validation(`unknown scope: ${unknown.join(", ")}`);
  const missing = scopes.filter((s) => !held.includes(s));
  if (missing.length > 0) throw errors.forbidden(`cannot grant scopes you do not hold in this team: ${missing.join(", ")}`);
}

/** The team's key, or 404 (also for another team's key). */
export async function requireKey(deps: IdentityDeps, team: TeamScope, keyId: string) {
  const stored = await deps.data.repos.apiKeys.get(team, keyId);
  if (!stored) throw errors.notFound("API key");
  return stored;
}
