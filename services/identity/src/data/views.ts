import type { User } from "@burnbox/contracts";
import type { Prisma } from "./prisma";

type UserRow = Prisma.UserGetPayload<object>;

export function userView(u: UserRow): User {
  return {
    id: u.id,
    email: u.email,
    display_name: u.displayName,
    is_system_admin: u.isSystemAdmin,
    email_verified: u.emailVerified,
    sso_provider: u.ssoProvider,
    timezone: u.timezone,
    date_format: u.dateFormat,
    time_format: u.timeFormat,
    max_sessions: u.maxSessions,
    created_at: u.createdAt.toISOString(),
    updated_at: u.updatedAt.toISOString(),
    last_login_at: u.lastLoginAt?.toISOString() ?? null,
  };
}
