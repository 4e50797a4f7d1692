import { z } from "../zod";
import { PaginationQuery } from "../pagination";
import { atLeastOneField } from "../shared/common.schemas";
import { DisplayName } from "./account.schemas";

export const AdminUpdateUserBody = atLeastOneField(
  z.object({
    display_name: DisplayName.optional(),
    is_system_admin: z.boolean().optional(),
    email_verified: z.boolean().optional(),
    max_sessions: z.number().int().min(1).max(1000).nullable().optional(),
  }),
).openapi("AdminUpdateUserRequest");
export const MigrateAuthBody = z
  .object({ to: z.enum(["password", "sso"]), provider: z.string().min(1).max(50).optional() })
  .openapi("MigrateAuthRequest");

/** `GET /admin/users?q=`: an email or display-name substring (case-insensitive); absent lists everyone. */
export const AdminUsersQuery = PaginationQuery.extend({ q: z.string().max(200).optional() });
export type AdminUsersQuery = z.infer<typeof AdminUsersQuery>;
