import type { adminRolesRoutes, rolesRoutes } from "@burnbox/contracts";
import type { Handlers } from "@burnbox/service-kit/http";
import type { TenancyDeps } from "../domain/deps";
import { createRole } from "../domain/roles/create-role.use-case";
import { deleteRole } from "../domain/roles/delete-role.use-case";
import { listRoles } from "../domain/roles/list-roles.use-case";
import { updateRole } from "../domain/roles/update-role.use-case";

export const rolesHandlers = (deps: TenancyDeps): Handlers<typeof rolesRoutes> => ({
  listRoles: ({ ctx }) => listRoles(deps, ctx),
});

export const adminRolesHandlers = (deps: TenancyDeps): Handlers<typeof adminRolesRoutes> => ({
  adminCreateRole: ({ ctx, body }) => createRole(deps, ctx, body),
  adminUpdateRole: ({ ctx, params, body }) => updateRole(deps, ctx, { ...params, ...body }),
  adminDeleteRole: ({ ctx, params }) => deleteRole(deps, ctx, params),
});
