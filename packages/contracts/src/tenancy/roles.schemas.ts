import { z } from "../zod";
import { Uuid } from "../shared/common.schemas";
import { atLeastOneField } from "../shared/common.schemas";

export const RoleScope = z.enum(["org", "team"]);
export type RoleScope = z.infer<typeof RoleScope>;

export const Role = z
  .object({
    id: Uuid,
    scope: RoleScope,
    value: z.string(),
    label: z.string(),
    description: z.string(),
    rank: z.number().int(),
    is_system: z.boolean(),
    permissions: z.array(z.string()),
  })
  .openapi("Role");
export type Role = z.infer<typeof Role>;

export const PermissionInfo = z
  .object({ key: z.string(), scope: RoleScope, label: z.string(), description: z.string() })
  .openapi("Permission");
export type PermissionInfo = z.infer<typeof PermissionInfo>;

export const RolesCatalog = z
  .object({
    org_roles: z.array(Role),
    team_roles: z.array(Role),
    org_permissions: z.array(PermissionInfo),
    team_permissions: z.array(PermissionInfo),
  })
  .openapi("RolesCatalog");
export type RolesCatalog = z.infer<typeof RolesCatalog>;

/** A custom team permission key: `team.` and dotted lowercase words. */
export const TEAM_PERMISSION_KEY = /^team\.[a-z_]+(\.[a-z_]+)*$/;
const PermissionKey = z.string().max(100);

export const CreateRoleBody = z
  .object({
    scope: RoleScope,
    value: z.string().regex(/^[a-z][a-z0-9_]{1,31}$/, "value: lowercase letters, digits and underscores, 2 to 32"),
    label: z.string().trim().min(1).max(100),
    description: z.string().max(500).optional(),
    rank: z.number().int().min(1),
    permissions: z.array(PermissionKey).max(100),
  })
  .openapi("CreateRoleRequest");
export type CreateRoleBody = z.infer<typeof CreateRoleBody>;

export const UpdateRoleBody = atLeastOneField(
  z.object({
    label: z.string().trim().min(1).max(100).optional(),
    description: z.string().max(500).optional(),
    permissions: z.array(PermissionKey).max(100).optional(),
  }),
).openapi("UpdateRoleRequest");
export type UpdateRoleBody = z.infer<typeof UpdateRoleBody>;

export const RoleParams = z.object({ roleId: Uuid });
