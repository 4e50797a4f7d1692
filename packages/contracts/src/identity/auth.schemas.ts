import { z } from "../zod";
import { Uuid } from "../shared/common.schemas";
import { EmailAddress, Password, DisplayName, User } from "./account.schemas";
import { SessionEntry } from "./sessions.schemas";
import { SsoProviderSummary } from "./sso.schemas";

export const TokenPair = z
  .object({ access_token: z.string(), refresh_token: z.string(), expires_in: z.number().int() })
  .openapi("TokenPair");
export type TokenPair = z.infer<typeof TokenPair>;

export const AuthResult = z.object({ user: User, tokens: TokenPair }).openapi("AuthResult");
export type AuthResult = z.infer<typeof AuthResult>;

export const RegisterBody = z
  .object({
    email: EmailAddress,
    password: Password,
    display_name: DisplayName,
    invite_token: z.string().optional(),
    use_cookie: z.boolean().optional(),
  })
  .openapi("RegisterRequest");
export type RegisterBody = z.infer<typeof RegisterBody>;

export const LoginBody = z.object({ email: EmailAddress, password: Password, use_cookie: z.boolean().optional() }).openapi("LoginRequest");
export type LoginBody = z.infer<typeof LoginBody>;

export const RefreshBody = z.object({ refresh_token: z.string().optional(), use_cookie: z.boolean().optional() }).openapi("RefreshRequest");
export type RefreshBody = z.infer<typeof RefreshBody>;

export const LogoutBody = z.object({ refresh_token: z.string().optional() }).openapi("LogoutRequest");

/** Single-use tokens mailed or handed out by identity (pending login, password reset, email verification). */
const OneTimeToken = z.string().min(1).max(200);

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
  .object({ pending_token: OneTimeToken, revoke_session_id: Uuid, use_cookie: z.boolean().optional() })
  .openapi("ResolveLoginRequest");
export const PendingSessionsQuery = z.object({ token: OneTimeToken });
export const PendingSessions = z.object({ sessions: z.array(SessionEntry), limit: z.number().int() }).openapi("PendingSessions");

export const ForgotPasswordBody = z.object({ email: EmailAddress }).openapi("ForgotPasswordRequest");
export const ResetPasswordBody = z.object({ token: OneTimeToken, new_password: Password }).openapi("ResetPasswordRequest");
export const TokenParams = z.object({ token: OneTimeToken });

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
  .object({ enabled: z.boolean(), providers: z.array(SsoProviderSummary), enforce_sso: z.boolean(), password_policy: PasswordPolicy })
  .openapi("SsoStatus");
