// The roles area's server state: the query and mutation hooks its pages call (never bb.api directly).
import { apiQuery, apiMutation, apiMutationWith } from "../../api/query";
import { rolesKeys } from "./keys";
import type { Role } from "./RoleFormModal";
import type { components } from "@burnbox/sdk";

/** `POST /admin/roles` */
export const useCreateRole = apiMutation((bb, body: components["schemas"]["CreateRoleRequest"]) => bb.api.POST("/admin/roles", { body }));

/** `PATCH /admin/roles/{roleId}` */
export const useUpdateRole = apiMutationWith((bb, body: components["schemas"]["UpdateRoleRequest"], args: { roleId: string | undefined }) =>
  // only the edit dialog of a role sends
  bb.api.PATCH("/admin/roles/{roleId}", { params: { path: { roleId: args.roleId! } }, body }),
);

/** `GET /roles` */
export const useRoles = apiQuery(rolesKeys.catalog(), (bb, signal) => bb.api.GET("/roles", { signal }));

/** `DELETE /admin/roles/{roleId}` */
export const useDeleteRole = apiMutation((bb, role: Role) =>
  bb.api.DELETE("/admin/roles/{roleId}", { params: { path: { roleId: role.id } } }),
);
