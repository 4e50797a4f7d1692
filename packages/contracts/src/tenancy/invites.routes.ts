import { paginated } from "../pagination";
import { MessageBody, OrgParams, errorResponses } from "../shared/common.schemas";
import { defineRoutes } from "../routes/route";
import {
  AcceptInviteResult,
  BulkCreateInvitesBody,
  BulkCreateInvitesResult,
  CreateInviteBody,
  Invite,
  InviteParams,
  InvitePreview,
  InviteTokenParams,
  ListInvitesQuery,
} from "./invites.schemas";

const createResponses = {
  201: { description: "Invited; the link is mailed to the address", schema: Invite },
  400: errorResponses[400],
  403: { description: "Permission or rank too low" },
  404: errorResponses[404],
  409: { description: "Already a member" },
} as const;

export const invitesRoutes = defineRoutes({ service: "tenancy", tag: "Invites" }, [
  {
    operationId: "createInvite",
    method: "post",
    path: "/orgs/{orgId}/invites",
    auth: "user",
    summary: "Invite an email address to the organization (replaces a pending invite to the same address)",
    request: { params: OrgParams, body: CreateInviteBody },
    responses: createResponses,
  },
  {
    operationId: "inviteMember",
    method: "post",
    path: "/orgs/{orgId}/members",
    auth: "user",
    tag: "Members",
    summary: "Invite a member: the same operation as POST /orgs/{orgId}/invites",
    request: { params: OrgParams, body: CreateInviteBody },
    responses: createResponses,
  },
  {
    operationId: "bulkCreateInvites",
    method: "post",
    path: "/orgs/{orgId}/invites/bulk",
    auth: "user",
    summary: "Invite up to 50 addresses; duplicates, members and addresses already invited are skipped with a reason",
    request: { params: OrgParams, body: BulkCreateInvitesBody },
    responses: {
      200: { description: "Invited and skipped", schema: BulkCreateInvitesResult },
      400: errorResponses[400],
      403: { description: "Permission or rank too low" },
      404: errorResponses[404],
    },
  },
  {
    operationId: "listInvites",
    method: "get",
    path: "/orgs/{orgId}/invites",
    auth: "user",
    summary: "List the organization's invites by status (default pending), newest first",
    request: { params: OrgParams, query: ListInvitesQuery },
    responses: {
      200: { description: "Invites", schema: paginated(Invite, "InvitePage") },
      403: errorResponses[403],
      404: errorResponses[404],
    },
  },
  {
    operationId: "revokeInvite",
    method: "delete",
    path: "/orgs/{orgId}/invites/{inviteId}",
    auth: "user",
    summary: "Revoke a pending invite: its link stops working",
    request: { params: InviteParams },
    responses: { 200: { description: "Revoked", schema: MessageBody }, 403: errorResponses[403], 404: errorResponses[404] },
  },
  {
    operationId: "previewInvite",
    method: "get",
    path: "/invites/{token}/preview",
    auth: "public",
    summary: "What an invite link offers (no authentication); unknown, expired, revoked and accepted invites are 404",
    request: { params: InviteTokenParams },
    responses: { 200: { description: "The invite", schema: InvitePreview }, 404: errorResponses[404] },
  },
  {
    operationId: "acceptInvite",
    method: "post",
    path: "/invites/{token}/accept",
    auth: "user_only",
    summary: "Join the organization (and teams) of an invite sent to the caller's email address",
    request: { params: InviteTokenParams },
    responses: {
      200: { description: "Joined", schema: AcceptInviteResult },
      403: { description: "The invite was sent to another address" },
      404: { description: "Unknown, expired or revoked" },
      409: { description: "Already accepted" },
    },
  },
] as const);
