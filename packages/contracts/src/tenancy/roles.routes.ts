import { errorResponses } from "../shared/common.schemas";
import { defineRoutes } from "../routes/route";
import { CreateRoleBody, Role, RoleParams, RolesCatalog, UpdateRoleBody } from "./roles.schemas";

export const rolesRoutes = defineRoutes({ service: "tenancy", tag: "Roles" }, [
  {
    operationId: "listRoles",
    method: "get",
    path: "/roles",
    auth: "authenticated",
    summary: "The org and team roles (system and custom) and every permission key",
    responses: { 200: { description: "Roles and permissions", schema: RolesCatalog }, 401: errorResponses[401] },
  },
] as const);

export const adminRolesRoutes = defineRoutes({ service: "tenancy", tag: "Admin roles" }, [
  {
    operationId: "adminCreateRole",
    method: "post",
    path: "/admin/roles",
    auth: "system_admin",
    summary: "Create a custom role (rank below the top system role of its scope); a new team permission key becomes a valid API-key scope",
    request: { body: CreateRoleBody },
    responses: {
      201: { description: "Created", schema: Role },
      400: errorResponses[400],
      403: errorResponses[403],
      409: { description: "Value taken" },
    },
  },
  {
    operationId: "adminUpdateRole",
    method: "patch",
    path: "/admin/roles/{roleId}",
    auth: "system_admin",
    summary: "Change a custom role's label, description or permissions",
    request: { params: RoleParams, body: UpdateRoleBody },
    responses: {
      200: { description: "The role", schema: Role },
      400: errorResponses[400],
      404: errorResponses[404],
      409: { description: "System role" },
    },
  },
  {
    operationId: "adminDeleteRole",
    method: "delete",
    path: "/admin/roles/{roleId}",
    auth: "system_admin",
    summary: "Delete a custom role that nobody holds",
    request: { params: RoleParams },
    responses: { 204: { description: "Deleted" }, 404: errorResponses[404], 409: { description: "System role or role in use" } },
  },
] as const);
