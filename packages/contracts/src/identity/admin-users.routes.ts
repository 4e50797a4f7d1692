import { paginated } from "../pagination";
import { IdParams, MessageBody, errorResponses } from "../shared/common.schemas";
import { defineRoutes } from "../routes/route";
import { User } from "./account.schemas";
import { AdminUpdateUserBody, AdminUsersQuery, MigrateAuthBody } from "./admin-users.schemas";

export const adminUsersRoutes = defineRoutes({ service: "identity", tag: "Admin" }, [
  {
    operationId: "adminListUsers",
    method: "get",
    path: "/admin/users",
    auth: "system_admin",
    summary: "List every user (system admins only; q: email or name substring)",
    request: { query: AdminUsersQuery },
    responses: { 200: { description: "Users", schema: paginated(User, "UserPage") }, 403: errorResponses[403] },
  },
  {
    operationId: "adminUpdateUser",
    method: "patch",
    path: "/admin/users/{id}",
    auth: "system_admin",
    summary: "Change a user (including max_sessions, the per-user session cap)",
    request: { params: IdParams, body: AdminUpdateUserBody },
    responses: { 200: { description: "The user", schema: User }, 404: errorResponses[404] },
  },
  {
    operationId: "adminDeleteUser",
    method: "delete",
    path: "/admin/users/{id}",
    auth: "system_admin",
    summary: "Delete a user",
    request: { params: IdParams },
    responses: { 200: { description: "Deleted", schema: MessageBody }, 404: errorResponses[404] },
  },
  {
    operationId: "adminRevokeUserSessions",
    method: "delete",
    path: "/admin/users/{id}/sessions",
    auth: "system_admin",
    summary: "Revoke every session of a user",
    request: { params: IdParams },
    responses: { 204: { description: "Revoked" }, 404: errorResponses[404] },
  },
  {
    operationId: "adminMigrateAuth",
    method: "post",
    path: "/admin/users/{id}/migrate-auth",
    auth: "system_admin",
    summary: "Move a user between password and SSO sign-in; their sessions are revoked",
    request: { params: IdParams, body: MigrateAuthBody },
    responses: { 200: { description: "The user", schema: User }, 404: errorResponses[404] },
  },
] as const);
