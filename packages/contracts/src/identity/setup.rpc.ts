import { z } from "../zod";
import { User } from "./account.schemas";
import { TokenPair } from "./auth.schemas";

/**
 * First-run setup between tenancy (which serves /setup/*) and identity (which owns users):
 * whether a system admin exists, creating the first one atomically, and undoing it when tenancy's
 * half of setup failed.
 */
export const SetupStateRequest = z.object({});
export const SetupStateReply = z.object({
  /** Some system admin exists (however it came: setup, or an `admin.emails` address once verified). */
  admin_exists: z.boolean(),
  /** The system admin created by setup, if one was (tenancy finishes or undoes an interrupted setup with it). */
  setup_admin_id: z.string().uuid().nullable(),
});
export type SetupStateReply = z.infer<typeof SetupStateReply>;
export const SetupCreateAdminRequest = z.object({
  email: z.string().max(320),
  password: z.string().max(1000),
  display_name: z.string().max(200),
  client_ip: z.string().max(100),
  user_agent: z.string().max(2000),
  use_cookie: z.boolean(),
  /** The browser's Origin header, checked like login's in cookie mode. */
  origin: z.string().max(2000).nullable(),
});
/** The refresh-token cookie identity would set on login (cookie mode); tenancy sets it on its answer. */
export const SetupCookie = z.object({
  name: z.string(),
  value: z.string(),
  path: z.string(),
  max_age_ms: z.number().int(),
  http_only: z.boolean(),
  secure: z.boolean(),
  same_site: z.enum(["lax", "strict", "none"]),
});
export type SetupCookie = z.infer<typeof SetupCookie>;
export const SetupCreateAdminReply = z.object({
  /**
   * created: the first system admin, signed in. resumed: the admin an interrupted setup created,
   * with the same email and password, signed in again. completed: a system admin already exists.
   * invalid: the details break a rule (`problem`). origin_refused: cookie mode from a foreign origin
   * (`problem` names the origin expected and the settings to change).
   */
  outcome: z.enum(["created", "resumed", "completed", "invalid", "origin_refused"]),
  problem: z.string().nullable(),
  user: User.nullable(),
  tokens: TokenPair.nullable(),
  cookie: SetupCookie.nullable(),
});
export type SetupCreateAdminReply = z.infer<typeof SetupCreateAdminReply>;
export const SetupAbortRequest = z.object({ user_id: z.string().uuid() });
export const SetupAbortReply = z.object({ removed: z.boolean() });

/** Identity: first-run setup for tenancy (which serves /setup/*). */
export const setupRpc = {
  setupState: { name: "identity.setup_state", request: SetupStateRequest, reply: SetupStateReply },
  setupCreateAdmin: { name: "identity.setup_create_admin", request: SetupCreateAdminRequest, reply: SetupCreateAdminReply },
  setupAbort: { name: "identity.setup_abort", request: SetupAbortRequest, reply: SetupAbortReply },
} as const;
