import type { Permission } from "@burnbox/contracts";
import { RpcError, authorize, errors, rpcRequest, type RequestCtx, type TeamScope } from "@burnbox/service-kit";
import type { IdentityDeps } from "../deps";

/** 404 when the caller may not see the team, 403 when they lack the permission in it. */
export async function requireTeamPermission(deps: IdentityDeps, ctx: RequestCtx, team: TeamScope, permission: Permission): Promise<void> {
  await authorize(deps.nc, deps.config.nats.namespace, { actor: ctx.actor, org_id: team.orgId, team_id: team.teamId, permission }, "team");
}

/** A key may not carry a scope its creator does not hold in that team. */
export async function requireGrantable(deps: IdentityDeps, ctx: RequestCtx, team: TeamScope, scopes: string[]): Promise<void> {
  const replies = await Promise.all(
    scopes.map((permission) =>
      rpcRequest(deps.nc, deps.config.nats.namespace, "tenancy.authorize", {
        actor: ctx.actor,
        org_id: team.orgId,
        team_id: team.teamId,
        permission,
      }).catch((err: unknown) => {
        if (err instanceof RpcError) throw errors.unavailable("authorization service unavailable");
        throw err;
      }),
    ),
  );
  const missing = scopes.filter((_, i) => !replies[i]?.allowed);
  if (missing.length > 0) throw errors.forbidden(`cannot grant scopes you do not hold in this team: ${missing.join(", ")}`);
}

/** The team's key, or 404 (also for another team's key). */
export async function requireKey(deps: IdentityDeps, team: TeamScope, keyId: string) {
  const stored = await deps.data.repos.apiKeys.get(team, keyId);
  if (!stored) throw errors.notFound("API key");
  return stored;
}
