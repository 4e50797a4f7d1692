import type { TeamScope } from "@burnbox/service-kit/data";
import type { RequestCtx } from "@burnbox/service-kit/http";
import type { IdentityDeps } from "../deps";
import { requireKey, requireTeamPermission } from "./key-access";

/** Soft revoke: stamped and kept for audit. Revoking an already revoked key changes nothing. */
export async function revokeApiKey(deps: IdentityDeps, ctx: RequestCtx, input: { team: TeamScope; keyId: string }): Promise<void> {
  const { team } = input;
  await requireTeamPermission(deps, ctx, team, "team.apikeys.manage");
  const { key } = await requireKey(deps, team, input.keyId);
  if (key.revoked_at) return;
  await deps.data.write(async (repos, events) => {
    await repos.apiKeys.revoke(team, [key.id], ctx.actor.user_id, new Date(deps.now()));
    events.audit({
      ctx,
      action: "apikey.revoked",
      org_id: team.orgId,
      team_id: team.teamId,
      target: { type: "api_key", id: key.id, name: key.name },
    });
  });
}
