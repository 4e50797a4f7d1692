import type { membersRoutes } from "@burnbox/contracts";
import type { Handlers } from "@burnbox/service-kit/http";
import type { TenancyDeps } from "../domain/deps";
import { addMember } from "../domain/members/add-member.use-case";
import { changeMemberRole } from "../domain/members/change-member-role.use-case";
import { deactivateMember } from "../domain/members/deactivate-member.use-case";
import { getMyMembership } from "../domain/members/get-my-membership.use-case";
import { listMembers } from "../domain/members/list-members.use-case";
import { searchMembers } from "../domain/members/search-members.use-case";

export const membersHandlers = (deps: TenancyDeps): Handlers<typeof membersRoutes> => ({
  listMembers: ({ ctx, params, query }) => listMembers(deps, ctx, { ...params, ...query }),
  getMyMembership: ({ ctx, params }) => getMyMembership(deps, ctx, params),
  searchMembers: ({ ctx, params, query }) => searchMembers(deps, ctx, { ...params, ...query }),
  addMember: ({ ctx, params, body }) => addMember(deps, ctx, { ...params, ...body }),
  changeMemberRole: ({ ctx, params, body }) => changeMemberRole(deps, ctx, { ...params, ...body }),
  deactivateMember: ({ ctx, params }) => deactivateMember(deps, ctx, params),
});
