import { z } from "../zod";
import { Timestamp, Uuid } from "../shared/common.schemas";

/** Field rules shared by sign-up, self-service and admin edits, so the three cannot disagree. */
export const EmailAddress = z.string().trim().toLowerCase().pipe(z.email()).openapi({ type: "string", format: "email" });
export const Password = z.string().min(1).max(256);
export const DisplayName = z.string().trim().min(1).max(100);

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

export const UpdateMeBody = z
  .object({
    display_name: DisplayName.optional(),
    timezone: z.string().trim().min(1).max(64).optional(),
    date_format: z.string().trim().min(1).max(32).optional(),
    time_format: z.enum(["12h", "24h"]).optional(),
  })
  .openapi("UpdateMeRequest");
export const ChangePasswordBody = z.object({ current_password: Password, new_password: Password }).openapi("ChangePasswordRequest");
export const DeleteMeBody = z.object({ password: Password }).openapi("DeleteAccountRequest");

export const DatetimeSettings = z
  .object({ timezone: z.string(), date_format: z.string(), time_format: z.string() })
  .openapi("DatetimeSettings");
