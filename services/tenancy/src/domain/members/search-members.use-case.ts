import type { MemberSearchResult, Page, SearchMembersQuery } from "@burnbox/contracts";
import { paginateList } from "@burnbox/service-kit/data";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { requireOrg } from "../access/require-access";
import type { TenancyDeps } from "../deps";
import { lookupUsers, matchesUser } from "../users";

/** Members of the org only (never other users of the platform) matching `q`, without those of `exclude_team`. */
export async function searchMembers(
  deps: TenancyDeps,
  ctx: RequestCtx,
  input: { orgId: string } & SearchMembersQuery,
): Promise<Page<MemberSearchResult>> {
  const scope = await requireOrg(deps, ctx, input, "org.members.view");
  const { orgMembers, teamMembers } = deps.data.repos;
  const [rows, excluded] = await Promise.all([
    orgMembers.listAll(scope),
    input.exclude_team ? teamMembers.listAll({ ...scope, teamId: input.exclude_team }) : Promise.resolve([]),
  ]);
  const skip = new Set(excluded.map((m) => m.userId));
  const candidates = rows.filter((r) => !skip.has(r.userId));
  const users = await lookupUsers(deps, { ids: candidates.map((r) => r.userId) });
  const matching = candidates.flatMap((r) => {
    const u = users.get(r.userId);
    return u && matchesUser(u, input.q) ? [{ user_id: u.id, email: u.email, display_name: u.display_name }] : [];
  });
  return paginateList(input, matching, (m) => m);
}
