import type { MyMembership } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import { requireOrg } from "../access/require-access";
import { resolveRole } from "../roles/resolve-role";
import type { TenancyDeps } from "../deps";
import { lookupUsers } from "../users";
import { toMember } from "./member-view";

/** The caller's own membership, with the org permission keys their role grants. */
export async function getMyMembership(deps: TenancyDeps, ctx: RequestCtx, input: { orgId: string }): Promise<MyMembership> {
  const scope = await requireOrg(deps, ctx, input, "org.view");
  const row = await deps.data.repos.orgMembers.get(scope, ctx.actor.user_id);
  // a system admin passes org.view without being a member: they have no membership to show
  if (!row) throw errors.notFound("membership");
  const users = await lookupUsers(deps, { ids: [row.userId] });
  return {
    ...toMember(scope.orgId, row, users.get(row.userId)),
    permissions: (await resolveRole(deps.data.repos, "org", row.role))?.permissions ?? [],
  };
}
