import type { AddMemberBody, Member } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import { orgRankOf, requireOrg } from "../access/require-access";
import { resolveRole } from "../roles/resolve-role";
import type { TenancyDeps } from "../deps";
import { lookupUsers } from "../users";
import { toMember } from "./member-view";

/** Adds an existing user to the org directly, with a role no higher than the actor's own. */
export async function addMember(deps: TenancyDeps, ctx: RequestCtx, input: { orgId: string } & AddMemberBody): Promise<Member> {
  const scope = await requireOrg(deps, ctx, input, "org.members.add");
  const role = await resolveRole(deps.data.repos, "org", input.role);
  if (!role) throw errors.validation("unknown role");
  if (role.rank > (await orgRankOf(deps, ctx, scope))) throw errors.forbidden("cannot grant a role above your own");
  const user = (await lookupUsers(deps, { ids: [input.user_id] })).get(input.user_id);
  if (!user) throw errors.notFound("user");
  return deps.data.write(async (repos, events) => {
    const row = await repos.orgMembers.add(scope, user.id, input.role);
    events.event("member.added", { org_id: scope.orgId, team_id: null, data: { user_id: user.id, role: row.role } });
    events.audit({
      ctx,
      action: "member.added",
      org_id: scope.orgId,
      target: { type: "member", id: user.id },
      metadata: { role: input.role, email: user.email },
    });
    return toMember(scope.orgId, row, user);
  });
}
