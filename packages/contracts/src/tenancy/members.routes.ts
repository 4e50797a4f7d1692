import { paginated } from "../pagination";
import { MessageBody, OrgParams, errorResponses } from "../shared/common.schemas";
import { defineRoutes } from "../routes/route";
import {
  AddMemberBody,
  ChangeRoleBody,
  ListMembersQuery,
  Member,
  MemberParams,
  MemberSearchResult,
  MyMembership,
  SearchMembersQuery,
} from "./orgs.schemas";

export const membersRoutes = defineRoutes({ service: "tenancy", tag: "Members" }, [
  {
    operationId: "listMembers",
    method: "get",
    path: "/orgs/{orgId}/members",
    auth: "user",
    summary: "List an organization's members (q: email or name substring)",
    request: { params: OrgParams, query: ListMembersQuery },
    responses: { 200: { description: "Members", schema: paginated(Member, "MemberPage") }, 404: errorResponses[404] },
  },
  {
    operationId: "getMyMembership",
    method: "get",
    path: "/orgs/{orgId}/members/me",
    auth: "user",
    summary: "The caller's membership in the organization, with its permission keys",
    request: { params: OrgParams },
    responses: { 200: { description: "Membership", schema: MyMembership }, 404: errorResponses[404] },
  },
  {
    operationId: "searchMembers",
    method: "get",
    path: "/orgs/{orgId}/members/search",
    auth: "user",
    summary: "Search the organization's members (never other users of the platform), optionally excluding a team's",
    request: { params: OrgParams, query: SearchMembersQuery },
    responses: { 200: { description: "Matches", schema: paginated(MemberSearchResult, "MemberSearchPage") }, 404: errorResponses[404] },
  },
  {
    operationId: "addMember",
    method: "post",
    path: "/orgs/{orgId}/members/add",
    auth: "user",
    summary: "Add an existing user to the organization directly",
    request: { params: OrgParams, body: AddMemberBody },
    responses: {
      201: { description: "Added", schema: Member },
      400: errorResponses[400],
      403: errorResponses[403],
      404: { description: "Unknown user" },
      409: { description: "Already a member" },
    },
  },
  {
    operationId: "changeMemberRole",
    method: "patch",
    path: "/orgs/{orgId}/members/{userId}",
    auth: "user",
    summary: "Change a member's org role (rank strictly above the target's, never granting above one's own)",
    request: { params: MemberParams, body: ChangeRoleBody },
    responses: {
      200: { description: "Member", schema: Member },
      400: errorResponses[400],
      403: { description: "Rank too low" },
      404: errorResponses[404],
      409: { description: "Last owner" },
    },
  },
  {
    operationId: "deactivateMember",
    method: "post",
    path: "/orgs/{orgId}/members/{userId}/deactivate",
    auth: "user",
    summary: "Remove a member from the organization and all its teams (the account stays)",
    request: { params: MemberParams },
    responses: {
      200: { description: "Removed", schema: MessageBody },
      403: { description: "Rank too low" },
      404: errorResponses[404],
      409: { description: "Last owner" },
    },
  },
] as const);
