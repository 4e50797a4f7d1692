import { z } from "../zod";
import { IdParams, MessageBody, Timestamp, Uuid, errorResponses } from "./common";
import { PaginationQuery, paginated } from "../pagination";
import { defineRoutes } from "./route";

export const User = z
  .object({
    id: Uuid,
    email: z.string(),
    display_name: z.string(),
    is_system_admin: z.boolean(),
    email_verified: z.boolean(),
    sso_provider: z.string().nullable().optional(),
    timezone: z.string().nullable().optional(),
    date_format: z.string().nullable().optional(),
    time_format: z.string().nullable().optional(),
    max_sessions: z.number().int().nullable().optional(),
    created_at: Timestamp,
    updated_at: Timestamp,
    last_login_at: Timestamp.nullable().optional(),
  })
  .openapi("User");
export type User = z.infer<typeof User>;

export const TokenPair = z
  .object({ access_token: z.string(), refresh_token: z.string(), expires_in: z.number().int() })
  .openapi("TokenPair");
export type TokenPair = z.infer<typeof TokenPair>;

export const AuthResult = z.object({ user: User, tokens: TokenPair }).openapi("AuthResult");
export type AuthResult = z.infer<typeof AuthResult>;

const Email = z.string().trim().toLowerCase().pipe(z.email()).openapi({ type: "string", format: "email" });

export const RegisterBody = z
  .object({
    email: Email,
    password: z.string().min(1).max(256),
    display_name: z.string().trim().min(1).max(100),
    invite_token: z.string().optional(),
    use_cookie: z.boolean().optional(),
  })
  .openapi("RegisterRequest");
export type RegisterBody = z.infer<typeof RegisterBody>;

export const LoginBody = z
  .object({ email: Email, password: z.string().min(1).max(256), use_cookie: z.boolean().optional() })
  .openapi("LoginRequest");
export type LoginBody = z.infer<typeof LoginBody>;

export const RefreshBody = z.object({ refresh_token: z.string().optional(), use_cookie: z.boolean().optional() }).openapi("RefreshRequest");
export type RefreshBody = z.infer<typeof RefreshBody>;

export const Session = z
  .object({
    id: Uuid,
    ip_address: z.string(),
    user_agent: z.string(),
    last_used_at: Timestamp,
    created_at: Timestamp,
    expires_at: Timestamp,
    current: z.boolean(),
  })
  .openapi("Session");
export type Session = z.infer<typeof Session>;

/** Spec 2.6: a session as listed in a session-limit conflict. */
export const SessionEntry = z
  .object({ id: Uuid, ip_address: z.string(), user_agent: z.string(), last_used_at: Timestamp, created_at: Timestamp })
  .openapi("SessionEntry");
export type SessionEntry = z.infer<typeof SessionEntry>;

/** Spec 7.3. */
export const SessionLimitConflict = z
  .object({
    error: z.string(),
    code: z.literal("session_limit"),
    pending_token: z.string(),
    sessions: z.array(SessionEntry),
    limit: z.number().int(),
  })
  .openapi("SessionLimitConflict");

export const ResolveLoginBody = z
  .object({ pending_token: z.string().min(1).max(200), revoke_session_id: Uuid, use_cookie: z.boolean().optional() })
  .openapi("ResolveLoginRequest");
export const PendingSessionsQuery = z.object({ token: z.string().min(1).max(200) });
export const PendingSessions = z.object({ sessions: z.array(SessionEntry), limit: z.number().int() }).openapi("PendingSessions");

export const LogoutBody = z.object({ refresh_token: z.string().optional() }).openapi("LogoutRequest");

export const UpdateMeBody = z
  .object({
    display_name: z.string().trim().min(1).max(100).optional(),
    timezone: z.string().trim().min(1).max(64).optional(),
    date_format: z.string().trim().min(1).max(32).optional(),
    time_format: z.enum(["12h", "24h"]).optional(),
  })
  .openapi("UpdateMeRequest");
export const ChangePasswordBody = z
  .object({ current_password: z.string().min(1).max(256), new_password: z.string().min(1).max(256) })
  .openapi("ChangePasswordRequest");
export const DeleteMeBody = z.object({ password: z.string().min(1).max(256) }).openapi("DeleteAccountRequest");
export const ForgotPasswordBody = z.object({ email: Email }).openapi("ForgotPasswordRequest");
export const ResetPasswordBody = z
  .object({ token: z.string().min(1).max(200), new_password: z.string().min(1).max(256) })
  .openapi("ResetPasswordRequest");
export const TokenParams = z.object({ token: z.string().min(1).max(200) });

export const PasswordPolicy = z
  .object({
    min_length: z.number().int(),
    require_uppercase: z.boolean(),
    require_lowercase: z.boolean(),
    require_digit: z.boolean(),
    require_symbol: z.boolean(),
  })
  .openapi("PasswordPolicy");
export const SsoStatus = z
  .object({ enabled: z.boolean(), providers: z.array(z.string()), enforce_sso: z.boolean(), password_policy: PasswordPolicy })
  .openapi("SsoStatus");
export const DatetimeSettings = z
  .object({ timezone: z.string(), date_format: z.string(), time_format: z.string() })
  .openapi("DatetimeSettings");

export const AdminUpdateUserBody = z
  .object({
    display_name: z.string().trim().min(1).max(100).optional(),
    is_system_admin: z.boolean().optional(),
    email_verified: z.boolean().optional(),
    max_sessions: z.number().int().min(1).max(1000).nullable().optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), { message: "at least one field is required" })
  .openapi("AdminUpdateUserRequest");
export const MigrateAuthBody = z
  .object({ to: z.enum(["password", "sso"]), provider: z.string().min(1).max(50).optional() })
  .openapi("MigrateAuthRequest");
export const PlatformSettings = z.object({ max_sessions_per_user: z.number().int().min(1).max(1000) }).openapi("PlatformSettings");
export const UpdatePlatformBody = PlatformSettings.partial().openapi("UpdatePlatformRequest");

export const identityRoutes = defineRoutes([
  {
    operationId: "register",
    method: "post",
    path: "/auth/register",
    service: "identity",
    auth: "public",
    tag: "Auth",
    summary: "Create an account and sign in",
    request: { body: RegisterBody },
    responses: { 201: { description: "Registered", schema: AuthResult }, 400: errorResponses[400] },
  },
  {
    operationId: "login",
    method: "post",
    path: "/auth/login",
    service: "identity",
    auth: "public",
    tag: "Auth",
    summary: "Sign in with email and password",
    request: { body: LoginBody },
    responses: {
      200: { description: "Signed in", schema: AuthResult },
      401: { description: "invalid email or password" },
      409: { description: "Session limit reached" },
      423: { description: "Account locked" },
    },
  },
  {
    operationId: "refresh",
    method: "post",
    path: "/auth/refresh",
    service: "identity",
    auth: "public",
    tag: "Auth",
    summary: "Exchange a refresh token for a new token pair",
    request: { body: RefreshBody },
    responses: { 200: { description: "New tokens", schema: TokenPair }, 401: errorResponses[401] },
  },
  {
    operationId: "getMe",
    method: "get",
    path: "/auth/me",
    service: "identity",
    auth: "authenticated",
    tag: "Auth",
    summary: "The signed-in user",
    responses: { 200: { description: "The user", schema: User }, 401: errorResponses[401] },
  },
  {
    operationId: "adminListUsers",
    method: "get",
    path: "/admin/users",
    service: "identity",
    auth: "system_admin",
    tag: "Admin",
    summary: "List every user (system admins only)",
    request: { query: PaginationQuery },
    responses: { 200: { description: "Users", schema: paginated(User, "UserPage") }, 403: errorResponses[403] },
  },
  {
    operationId: "loginResolve",
    method: "post",
    path: "/auth/login/resolve",
    service: "identity",
    auth: "public",
    tag: "Auth",
    summary: "Finish a login held at the session limit by revoking one session",
    request: { body: ResolveLoginBody },
    responses: {
      200: { description: "Signed in", schema: AuthResult },
      401: errorResponses[401],
      409: { description: "Still at the limit", schema: SessionLimitConflict },
    },
  },
  {
    operationId: "pendingSessions",
    method: "get",
    path: "/auth/login/pending-sessions",
    service: "identity",
    auth: "public",
    tag: "Auth",
    summary: "The sessions of a pending login (does not consume the token)",
    request: { query: PendingSessionsQuery },
    responses: { 200: { description: "Sessions", schema: PendingSessions }, 401: errorResponses[401] },
  },
  {
    operationId: "logout",
    method: "post",
    path: "/auth/logout",
    service: "identity",
    auth: "public",
    tag: "Auth",
    summary: "Revoke the current session (idempotent)",
    request: { body: LogoutBody },
    responses: { 200: { description: "Signed out", schema: MessageBody } },
  },
  {
    operationId: "updateMe",
    method: "patch",
    path: "/auth/me",
    service: "identity",
    auth: "user_only",
    tag: "Auth",
    summary: "Change display name and date/time preferences",
    request: { body: UpdateMeBody },
    responses: { 200: { description: "The user", schema: User }, 400: errorResponses[400] },
  },
  {
    operationId: "deleteMe",
    method: "delete",
    path: "/auth/me",
    service: "identity",
    auth: "user_only",
    tag: "Auth",
    summary: "Delete one's own account (password required)",
    request: { body: DeleteMeBody },
    responses: { 200: { description: "Deleted", schema: MessageBody }, 401: errorResponses[401] },
  },
  {
    operationId: "changePassword",
    method: "put",
    path: "/auth/me/password",
    service: "identity",
    auth: "user_only",
    tag: "Auth",
    summary: "Change password; every other session is revoked",
    request: { body: ChangePasswordBody },
    responses: { 200: { description: "Changed", schema: MessageBody }, 400: errorResponses[400], 401: errorResponses[401] },
  },
  {
    operationId: "forgotPassword",
    method: "post",
    path: "/auth/forgot-password",
    service: "identity",
    auth: "public",
    tag: "Auth",
    summary: "Mail a password-reset link (always 200)",
    request: { body: ForgotPasswordBody },
    responses: { 200: { description: "Accepted", schema: MessageBody } },
  },
  {
    operationId: "resetPassword",
    method: "post",
    path: "/auth/reset-password",
    service: "identity",
    auth: "public",
    tag: "Auth",
    summary: "Set a new password with a reset token; every session is revoked",
    request: { body: ResetPasswordBody },
    responses: { 200: { description: "Reset", schema: MessageBody }, 400: errorResponses[400] },
  },
  {
    operationId: "verifyEmail",
    method: "get",
    path: "/auth/verify-email/{token}",
    service: "identity",
    auth: "public",
    tag: "Auth",
    summary: "Confirm an email address",
    request: { params: TokenParams },
    responses: { 200: { description: "Verified", schema: MessageBody }, 400: errorResponses[400] },
  },
  {
    operationId: "ssoStatus",
    method: "get",
    path: "/auth/sso-status",
    service: "identity",
    auth: "public",
    tag: "Auth",
    summary: "SSO configuration and the password policy",
    responses: { 200: { description: "Status", schema: SsoStatus } },
  },
  {
    operationId: "datetimeSettings",
    method: "get",
    path: "/auth/datetime-settings",
    service: "identity",
    auth: "authenticated",
    tag: "Auth",
    summary: "The caller's timezone and date/time formats (with defaults)",
    responses: { 200: { description: "Settings", schema: DatetimeSettings } },
  },
  {
    operationId: "listSessions",
    method: "get",
    path: "/auth/sessions",
    service: "identity",
    auth: "user_only",
    tag: "Sessions",
    summary: "The caller's active sessions",
    request: { query: PaginationQuery },
    responses: { 200: { description: "Sessions", schema: paginated(Session, "SessionPage") } },
  },
  {
    operationId: "revokeSession",
    method: "delete",
    path: "/auth/sessions/{id}",
    service: "identity",
    auth: "user_only",
    tag: "Sessions",
    summary: "Revoke one of the caller's sessions",
    request: { params: IdParams },
    responses: { 200: { description: "Revoked", schema: MessageBody }, 404: errorResponses[404] },
  },
  {
    operationId: "revokeAllSessions",
    method: "delete",
    path: "/auth/sessions",
    service: "identity",
    auth: "user_only",
    tag: "Sessions",
    summary: "Revoke every session of the caller but the current one",
    responses: { 200: { description: "Revoked", schema: MessageBody } },
  },
  {
    operationId: "adminUpdateUser",
    method: "patch",
    path: "/admin/users/{id}",
    service: "identity",
    auth: "system_admin",
    tag: "Admin",
    summary: "Change a user (including max_sessions, the per-user session cap)",
    request: { params: IdParams, body: AdminUpdateUserBody },
    responses: { 200: { description: "The user", schema: User }, 404: errorResponses[404] },
  },
  {
    operationId: "adminDeleteUser",
    method: "delete",
    path: "/admin/users/{id}",
    service: "identity",
    auth: "system_admin",
    tag: "Admin",
    summary: "Delete a user",
    request: { params: IdParams },
    responses: { 200: { description: "Deleted", schema: MessageBody }, 404: errorResponses[404] },
  },
  {
    operationId: "adminRevokeUserSessions",
    method: "delete",
    path: "/admin/users/{id}/sessions",
    service: "identity",
    auth: "system_admin",
    tag: "Admin",
    summary: "Revoke every session of a user",
    request: { params: IdParams },
    responses: { 204: { description: "Revoked" }, 404: errorResponses[404] },
  },
  {
    operationId: "adminMigrateAuth",
    method: "post",
    path: "/admin/users/{id}/migrate-auth",
    service: "identity",
    auth: "system_admin",
    tag: "Admin",
    summary: "Move a user between password and SSO sign-in; their sessions are revoked",
    request: { params: IdParams, body: MigrateAuthBody },
    responses: { 200: { description: "The user", schema: User }, 404: errorResponses[404] },
  },
  {
    operationId: "adminGetPlatform",
    method: "get",
    path: "/admin/platform",
    service: "identity",
    auth: "system_admin",
    tag: "Admin",
    summary: "Platform-wide settings",
    responses: { 200: { description: "Settings", schema: PlatformSettings } },
  },
  {
    operationId: "adminUpdatePlatform",
    method: "put",
    path: "/admin/platform",
    service: "identity",
    auth: "system_admin",
    tag: "Admin",
    summary: "Change platform-wide settings (merged), such as the default session limit",
    request: { body: UpdatePlatformBody },
    responses: { 200: { description: "Settings", schema: PlatformSettings } },
  },
] as const);
