import type { teamMembersRoutes } from "@burnbox/contracts";
import type { Handlers } from "@burnbox/service-kit/http";
import type { TenancyDeps } from "../domain/deps";
import { addTeamMember } from "../domain/team-members/add-team-member.use-case";
import { bulkAddTeamMembers } from "../domain/team-members/bulk-add-team-members.use-case";
import { bulkRemoveTeamMembers } from "../domain/team-members/bulk-remove-team-members.use-case";
import { changeTeamMemberRole } from "../domain/team-members/change-team-member-role.use-case";
import { listTeamMembers } from "../domain/team-members/list-team-members.use-case";
import { removeTeamMember } from "../domain/team-members/remove-team-member.use-case";

export const teamMembersHandlers = (deps: TenancyDeps): Handlers<typeof teamMembersRoutes> => ({
  listTeamMembers: ({ ctx, params, query }) => listTeamMembers(deps, ctx, { ...params, ...query }),
  addTeamMember: ({ ctx, params, body }) => addTeamMember(deps, ctx, { ...params, ...body }),
  changeTeamMemberRole: ({ ctx, params, body }) => changeTeamMemberRole(deps, ctx, { ...params, ...body }),
  removeTeamMember: ({ ctx, params }) => removeTeamMember(deps, ctx, params),
  bulkAddTeamMembers: ({ ctx, params, body }) => bulkAddTeamMembers(deps, ctx, { ...params, ...body }),
  bulkRemoveTeamMembers: ({ ctx, params, body }) => bulkRemoveTeamMembers(deps, ctx, { ...params, ...body }),
});
