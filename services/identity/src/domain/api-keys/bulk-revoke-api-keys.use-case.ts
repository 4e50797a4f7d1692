import type { TeamScope } from "@burnbox/service-kit/data";
import type { RequestCtx } from "@burnbox/service-kit/http";
import type { IdentityDeps } from "../deps";
import { requireTeamPermission } from "./key-access";

/** Revokes the team's listed keys; ids of other teams, unknown or already revoked come back in `skipped`. */
export async function bulkRevokeApiKeys(
  deps: IdentityDeps,
  ctx: RequestCtx,
  input: { team: TeamScope; keyIds: string[] },
): Promise<{ revoked: number; skipped: string[] }> {
  const { team } = input;
  await requireTeamPermission(deps, ctx, team, "team.apikeys.manage");
  const ids = [...new Set(input.keyIds)];
  const revoked = await deps.data.write(async (repos, events) => {
    const candidates = await repos.apiKeys.unrevoked(team, ids);
    const revoked = candidates.map((c) => c.id);
    if (candidates.length > 0) {
      await repos.apiKeys.revoke(team, revoked, ctx.actor.user_id, new Date(deps.now()));
      events.audit({
        ctx,
        action: "apikey.bulk_revoked",
        org_id: team.orgId,
        team_id: team.teamId,
        target: { type: "api_key", id: null },
        metadata: { key_ids: revoked },
      });
    }
    return revoked;
  });
  return { revoked: revoked.length, skipped: ids.filter((id) => !revoked.includes(id)) };
}
