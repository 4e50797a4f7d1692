// The orgs area's server state: the query and mutation hooks its pages call (never bb.api directly).
import { apiQuery, apiQueryWith, apiMutation, apiMutationWith } from "../../api/query";
import { orgsKeys } from "./keys";
import type { ListParams } from "../../components";
import type { components } from "@burnbox/sdk";

export type Invite = components["schemas"]["Invite"];
export type Member = components["schemas"]["Member"];
export type OrgSettings = components["schemas"]["OrgSettings"];

/** `GET /orgs/{orgId}` */
export const useOrg = apiQueryWith(
  (args: { orgId: string }) => orgsKeys.org(args.orgId),
  (bb, signal, args) => bb.api.GET("/orgs/{orgId}", { params: { path: { orgId: args.orgId } }, signal }),
);

/** `DELETE /orgs/{orgId}` */
export const useDeleteOrg = apiMutationWith((bb, body: { password?: string; confirm?: string }, args: { orgId: string }) =>
  bb.api.DELETE("/orgs/{orgId}", { params: { path: { orgId: args.orgId } }, body }),
);

/** `GET /roles` */
export const useRoles = apiQuery(orgsKeys.roles(), (bb, signal) => bb.api.GET("/roles", { signal }));

/** `GET /orgs/{orgId}/teams` */
export const useOrgTeams = apiQueryWith(
  (args: { orgId: string }) => ["orgs", args.orgId, "teams-for-invites"],
  (bb, signal, args) => bb.api.GET("/orgs/{orgId}/teams", { params: { path: { orgId: args.orgId }, query: { per_page: 100 } }, signal }),
);

/** `POST /orgs/{orgId}/invites` */
export const useSendInvite = apiMutationWith((bb, body: components["schemas"]["CreateInviteRequest"], args: { orgId: string }) =>
  bb.api.POST("/orgs/{orgId}/invites", { params: { path: { orgId: args.orgId } }, body }),
);

/** `POST /orgs/{orgId}/invites/bulk` */
export const useSendBulkInvites = apiMutationWith((bb, body: components["schemas"]["BulkCreateInvitesRequest"], args: { orgId: string }) =>
  bb.api.POST("/orgs/{orgId}/invites/bulk", { params: { path: { orgId: args.orgId } }, body }),
);

/** `GET /orgs/{orgId}/invites` */
export const useInvites = apiQueryWith(
  (args: { orgId: string; list: ListParams<"status">; listPerPage: number; status: "pending" | "accepted" | "expired" | "revoked" }) =>
    orgsKeys.invitePage(args.orgId, args.list.page, args.listPerPage, args.status),
  (bb, signal, args) =>
    bb.api.GET("/orgs/{orgId}/invites", {
      params: { path: { orgId: args.orgId }, query: { status: args.status, page: args.list.page, per_page: args.listPerPage } },
      signal,
    }),
);

/** `DELETE /orgs/{orgId}/invites/{inviteId}` */
export const useRevokeInvite = apiMutationWith((bb, inv: Invite, args: { orgId: string }) =>
  bb.api.DELETE("/orgs/{orgId}/invites/{inviteId}", { params: { path: { orgId: args.orgId, inviteId: inv.id } } }),
);

/** `GET /orgs/{orgId}/members` */
export const useMembers = apiQueryWith(
  (args: { orgId: string; list: ListParams<"q" | "role">; listPerPage: number; listFilters: Record<"q" | "role", string | undefined> }) =>
    orgsKeys.memberPage(args.orgId, args.list.page, args.listPerPage, args.listFilters),
  (bb, signal, args) =>
    bb.api.GET("/orgs/{orgId}/members", {
      params: {
        path: { orgId: args.orgId },
        query: {
          page: args.list.page,
          per_page: args.listPerPage,
          ...(args.listFilters.q ? { q: args.listFilters.q } : {}),
          ...(args.listFilters.role ? { role: args.listFilters.role } : {}),
        },
      },
      signal,
    }),
);

/** `PATCH /orgs/{orgId}/members/{userId}` */
export const useChangeMemberRole = apiMutationWith((bb, v: { member: Member; role: string }, args: { orgId: string }) =>
  bb.api.PATCH("/orgs/{orgId}/members/{userId}", {
    params: { path: { orgId: args.orgId, userId: v.member.user_id } },
    body: { role: v.role },
  }),
);

/** `POST /orgs/{orgId}/members/{userId}/deactivate` */
export const useDeactivateMember = apiMutationWith((bb, m: Member, args: { orgId: string }) =>
  bb.api.POST("/orgs/{orgId}/members/{userId}/deactivate", { params: { path: { orgId: args.orgId, userId: m.user_id } } }),
);

/** `POST /orgs/{orgId}/members/add` */
export const useAddMember = apiMutationWith((bb, body: { user_id: string; role: string }, args: { orgId: string }) =>
  bb.api.POST("/orgs/{orgId}/members/add", { params: { path: { orgId: args.orgId } }, body }),
);

/** `POST /orgs` */
export const useCreateOrg = apiMutation((bb, body: { name: string }) => bb.api.POST("/orgs", { body }));

/** `PATCH /orgs/{orgId}` */
export const useRenameOrg = apiMutationWith((bb, body: { name: string }, args: { orgId: string }) =>
  bb.api.PATCH("/orgs/{orgId}", { params: { path: { orgId: args.orgId } }, body }),
);

/** `PATCH /orgs/{orgId}/settings` */
export const useUpdateOrgSettings = apiMutationWith((bb, body: OrgSettings, args: { orgId: string }) =>
  bb.api.PATCH("/orgs/{orgId}/settings", { params: { path: { orgId: args.orgId } }, body }),
);
