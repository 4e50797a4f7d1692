import type { adminUsersRoutes } from "@burnbox/contracts";
import type { Handlers } from "@burnbox/service-kit/http";
import { deleteUser } from "../domain/admin-users/delete-user.use-case";
import { listUsers } from "../domain/admin-users/list-users.use-case";
import { migrateUserAuth } from "../domain/admin-users/migrate-user-auth.use-case";
import { revokeUserSessions } from "../domain/admin-users/revoke-user-sessions.use-case";
import { updateUser } from "../domain/admin-users/update-user.use-case";
import type { IdentityDeps } from "../domain/deps";

export const adminUsersHandlers = (deps: IdentityDeps): Handlers<typeof adminUsersRoutes> => ({
  adminListUsers: ({ ctx, query }) => listUsers(deps, ctx, query),
  adminUpdateUser: ({ ctx, params, body }) => updateUser(deps, ctx, { userId: params.id, changes: body }),
  adminDeleteUser: ({ ctx, params }) => deleteUser(deps, ctx, { userId: params.id }),
  adminRevokeUserSessions: ({ ctx, params }) => revokeUserSessions(deps, ctx, { userId: params.id }),
  adminMigrateAuth: ({ ctx, params, body }) => migrateUserAuth(deps, ctx, { userId: params.id, ...body }),
});
