// The teams area's server state: the query and mutation hooks its pages call (never bb.api directly).
import { apiQuery, apiQueryWith, apiMutationWith } from "../../api/query";
import { teamsKeys } from "./keys";
import type { ListParams } from "../../components";
import type { components } from "@burnbox/sdk";

export type Assignment = components["schemas"]["DomainAssignment"];
export type Access = Assignment["access_level"];

/** `GET /roles` */
export const useRoles = apiQuery(teamsKeys.roles(), (bb, signal) => bb.api.GET("/roles", { signal }));

/** `GET /orgs/{orgId}/teams/{teamId}/domains` */
export const useAssignments = apiQueryWith(
  (args: { orgId: string; teamId: string; path: { orgId: string; teamId: string } }) => teamsKeys.assignments(args.orgId, args.teamId),
  (bb, signal, args) =>
    bb.api.GET("/orgs/{orgId}/teams/{teamId}/domains", { params: { path: args.path, query: { per_page: 100 } }, signal }),
);

/** `PATCH /orgs/{orgId}/teams/{teamId}/domains/{domainId}` */
export const useUpdateAssignment = apiMutationWith(
  (
    bb,
    vars: { domainId: string; body: components["schemas"]["UpdateDomainAssignmentRequest"] },
    args: { path: { orgId: string; teamId: string } },
  ) =>
    bb.api.PATCH("/orgs/{orgId}/teams/{teamId}/domains/{domainId}", {
      params: { path: { ...args.path, domainId: vars.domainId } },
      body: vars.body,
    }),
);

/** `DELETE /orgs/{orgId}/teams/{teamId}/domains/{domainId}` */
export const useUnassignDomain = apiMutationWith(
  (bb, vars: { domainId: string; force: boolean }, args: { path: { orgId: string; teamId: string } }) =>
    bb.api.DELETE("/orgs/{orgId}/teams/{teamId}/domains/{domainId}", {
      params: { path: { ...args.path, domainId: vars.domainId }, query: vars.force ? { force: true } : {} },
    }),
);

/** `GET /orgs/{orgId}/domains` */
export const useVerifiedDomains = apiQueryWith(
  (args: { orgId: string }) => teamsKeys.verifiedDomains(args.orgId),
  (bb, signal, args) =>
    bb.api.GET("/orgs/{orgId}/domains", { params: { path: { orgId: args.orgId }, query: { status: "verified", per_page: 100 } }, signal }),
);

/** `POST /orgs/{orgId}/teams/{teamId}/domains` */
export const useAssignDomain = apiMutationWith(
  (bb, body: { domain_id: string; access_level: Access }, args: { orgId: string; teamId: string }) =>
    bb.api.POST("/orgs/{orgId}/teams/{teamId}/domains", { params: { path: { orgId: args.orgId, teamId: args.teamId } }, body }),
);

/** `GET /orgs/{orgId}/teams/{teamId}/members` */
export const useTeamMembers = apiQueryWith(
  (args: { orgId: string; teamId: string; list: ListParams<never>; path: { orgId: string; teamId: string }; listPerPage: number }) =>
    teamsKeys.memberPage(args.orgId, args.teamId, { page: args.list.page }),
  (bb, signal, args) =>
    bb.api.GET("/orgs/{orgId}/teams/{teamId}/members", {
      params: { path: args.path, query: { page: args.list.page, per_page: args.listPerPage } },
      signal,
    }),
);

/** `PATCH /orgs/{orgId}/teams/{teamId}/members/{userId}` */
export const useChangeTeamRole = apiMutationWith(
  (bb, vars: { userId: string; role: string }, args: { path: { orgId: string; teamId: string } }) =>
    bb.api.PATCH("/orgs/{orgId}/teams/{teamId}/members/{userId}", {
      params: { path: { ...args.path, userId: vars.userId } },
      body: { role: vars.role },
    }),
);

/** `DELETE /orgs/{orgId}/teams/{teamId}/members/{userId}` */
export const useRemoveMember = apiMutationWith((bb, userId: string, args: { path: { orgId: string; teamId: string } }) =>
  bb.api.DELETE("/orgs/{orgId}/teams/{teamId}/members/{userId}", { params: { path: { ...args.path, userId } } }),
);

/** `POST /orgs/{orgId}/teams/{teamId}/members/bulk-remove` */
export const useRemoveMembers = apiMutationWith((bb, ids: string[], args: { path: { orgId: string; teamId: string } }) =>
  bb.api.POST("/orgs/{orgId}/teams/{teamId}/members/bulk-remove", { params: { path: args.path }, body: { user_ids: ids } }),
);

/** `GET /orgs/{orgId}/members/search` */
export const useMemberSuggestions = apiQueryWith(
  (args: { orgId: string; teamId: string }) => [...teamsKeys.members(args.orgId, args.teamId), "candidates"],
  (bb, signal, args) =>
    bb.api.GET("/orgs/{orgId}/members/search", {
      params: { path: { orgId: args.orgId }, query: { exclude_team: args.teamId, per_page: 20 } },
      signal,
    }),
);

/** `POST /orgs/{orgId}/teams/{teamId}/members` */
export const useAddMember = apiMutationWith(
  (bb, vars: { email: string; role: string }, args: { path: { orgId: string; teamId: string } }) =>
    bb.api.POST("/orgs/{orgId}/teams/{teamId}/members", { params: { path: args.path }, body: vars }),
);

/** `POST /orgs/{orgId}/teams/{teamId}/members/bulk-add` */
export const useAddMembers = apiMutationWith(
  (bb, vars: { emails: string[]; role: string }, args: { path: { orgId: string; teamId: string } }) =>
    bb.api.POST("/orgs/{orgId}/teams/{teamId}/members/bulk-add", {
      params: { path: args.path },
      body: { members: vars.emails.map((email) => ({ email, role: vars.role })) },
    }),
);

/** `PATCH /orgs/{orgId}/teams/{teamId}` */
export const useUpdateTeam = apiMutationWith(
  (bb, body: components["schemas"]["UpdateTeamRequest"], args: { orgId: string; teamId: string }) =>
    bb.api.PATCH("/orgs/{orgId}/teams/{teamId}", { params: { path: { orgId: args.orgId, teamId: args.teamId } }, body }),
);

/** `GET /orgs/{orgId}/teams/{teamId}` */
export const useTeam = apiQueryWith(
  (args: { orgId: string; teamId: string; path: { orgId: string; teamId: string } }) => teamsKeys.team(args.orgId, args.teamId),
  (bb, signal, args) => bb.api.GET("/orgs/{orgId}/teams/{teamId}", { params: { path: args.path }, signal }),
);

/** `POST /orgs/{orgId}/teams/{teamId}/archive` */
export const useArchiveTeam = apiMutationWith((bb, _vars: void, args: { path: { orgId: string; teamId: string } }) =>
  bb.api.POST("/orgs/{orgId}/teams/{teamId}/archive", { params: { path: args.path } }),
);

/** `POST /orgs/{orgId}/teams/{teamId}/restore` */
export const useRestoreTeam = apiMutationWith((bb, _vars: void, args: { path: { orgId: string; teamId: string } }) =>
  bb.api.POST("/orgs/{orgId}/teams/{teamId}/restore", { params: { path: args.path } }),
);

/** `POST /orgs/{orgId}/teams/{teamId}/leave` */
export const useLeaveTeam = apiMutationWith((bb, _vars: void, args: { path: { orgId: string; teamId: string } }) =>
  bb.api.POST("/orgs/{orgId}/teams/{teamId}/leave", { params: { path: args.path } }),
);

/** `POST /orgs/{orgId}/teams/{teamId}/transfer` */
export const useTransferTeam = apiMutationWith((bb, target: string, args: { path: { orgId: string; teamId: string } }) =>
  bb.api.POST("/orgs/{orgId}/teams/{teamId}/transfer", { params: { path: args.path }, body: { target_org_id: target } }),
);

/** `GET /orgs/{orgId}/teams/{teamId}/impact` */
export const useTeamImpact = apiQueryWith(
  (args: { orgId: string; teamId: string; path: { orgId: string; teamId: string } }) => teamsKeys.impact(args.orgId, args.teamId),
  (bb, signal, args) => bb.api.GET("/orgs/{orgId}/teams/{teamId}/impact", { params: { path: args.path }, signal }),
);

/** `DELETE /orgs/{orgId}/teams/{teamId}` */
export const useDeleteTeam = apiMutationWith((bb, _vars: void, args: { path: { orgId: string; teamId: string } }) =>
  bb.api.DELETE("/orgs/{orgId}/teams/{teamId}", { params: { path: args.path } }),
);

/** `GET /orgs/{orgId}/teams` */
export const useTeams = apiQueryWith(
  (args: {
    orgId: string;
    list: ListParams<"q" | "archived">;
    listPerPage: number;
    listFilters: Record<"q" | "archived", string | undefined>;
    archived: "false" | "true" | "all";
  }) => teamsKeys.list(args.orgId, { page: args.list.page, perPage: args.listPerPage, ...args.listFilters }),
  (bb, signal, args) =>
    bb.api.GET("/orgs/{orgId}/teams", {
      params: {
        path: { orgId: args.orgId },
        query: { page: args.list.page, per_page: args.listPerPage, archived: args.archived, q: args.listFilters.q || undefined },
      },
      signal,
    }),
);

/** `POST /orgs/{orgId}/teams` */
export const useCreateTeam = apiMutationWith((bb, body: { name: string; description?: string }, args: { orgId: string }) =>
  bb.api.POST("/orgs/{orgId}/teams", { params: { path: { orgId: args.orgId } }, body }),
);
