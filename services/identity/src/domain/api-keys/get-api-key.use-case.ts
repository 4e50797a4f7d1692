import type { ApiKey } from "@burnbox/contracts";
import type { TeamScope } from "@burnbox/service-kit/data";
import type { RequestCtx } from "@burnbox/service-kit/http";
import type { IdentityDeps } from "../deps";
import { requireKey, requireTeamPermission } from "./key-access";
import { withPendingUsage } from "./key-cache";

export async function getApiKey(deps: IdentityDeps, ctx: RequestCtx, input: { team: TeamScope; keyId: string }): Promise<ApiKey> {
  await requireTeamPermission(deps, ctx, input.team, "team.apikeys.view");
  const { key } = await requireKey(deps, input.team, input.keyId);
  const [shown] = await withPendingUsage(deps, [key]);
  return shown ?? key;
}
