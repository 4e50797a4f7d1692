import type { ListMembersQuery, Member, Page } from "@burnbox/contracts";
import { paginateList } from "@burnbox/service-kit/data";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { requireOrg } from "../access/require-access";
import type { TenancyDeps } from "../deps";
import { lookupUsers, matchesUser } from "../users";
import { toMember } from "./member-view";

/** The org's members; `q` matches email or name (identity holds those, so the filter runs here). */
export async function listMembers(deps: TenancyDeps, ctx: RequestCtx, input: { orgId: string } & ListMembersQuery): Promise<Page<Member>> {
  const scope = await requireOrg(deps, ctx, input, "org.members.view");
  const rows = await deps.data.repos.orgMembers.listAll(scope, input.role ? { role: input.role } : {});
  const users = await lookupUsers(deps, { ids: rows.map((r) => r.userId) });
  const matching = rows.filter((r) => matchesUser(users.get(r.userId), input.q));
  return paginateList(input, matching, (r) => toMember(scope.orgId, r, users.get(r.userId)));
}
