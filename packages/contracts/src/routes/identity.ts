import { z } from "../zod";
import { Timestamp, Uuid, errorResponses } from "./common";
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
] as const);
