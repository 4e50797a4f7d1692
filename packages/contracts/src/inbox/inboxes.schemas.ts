import { z } from "../zod";
import { PaginationQuery } from "../pagination";
import { Duration, Timestamp, Uuid } from "../shared/common.schemas";
import { SmtpBehaviour } from "./smtp-behaviour.schemas";

export const INBOX_ALIAS_PATTERN = /^[a-z0-9][a-z0-9._-]{0,62}[a-z0-9]$/;

export const Inbox = z
  .object({
    id: Uuid,
    team_id: Uuid,
    org_id: Uuid,
    domain_id: Uuid,
    domain_assignment_id: Uuid,
    created_by: Uuid,
    address: z.string(),
    full_address: z.string(),
    is_active: z.boolean(),
    private: z.boolean(),
    expires_at: Timestamp,
    created_at: Timestamp,
    email_count: z.number().int(),
    unread_count: z.number().int(),
    /** How the SMTP intake misbehaves for this inbox (extensions section 8); null: normally. */
    smtp_behaviour: SmtpBehaviour.nullable(),
  })
  .openapi("Inbox");
export type Inbox = z.infer<typeof Inbox>;

export const CreateInboxBody = z
  .object({
    domain_assignment_id: Uuid,
    alias: z.string().toLowerCase().regex(INBOX_ALIAS_PATTERN, "alias: 2-64 of a-z 0-9 . _ -, starting and ending alphanumeric").optional(),
    ttl: Duration.optional(),
    private: z.boolean().optional(),
    smtp_behaviour: SmtpBehaviour.nullable().optional(),
  })
  .openapi("CreateInboxRequest");
export type CreateInboxBody = z.infer<typeof CreateInboxBody>;

export const INBOX_STATUSES = ["active", "expired", "all"] as const;

/** `status`: an inbox past `expires_at` counts as expired before the cleanup worker removes it; `q`: an address substring. */
export const ListInboxesQuery = PaginationQuery.extend({
  team_id: Uuid.optional(),
  status: z.enum(INBOX_STATUSES).default("all"),
  q: z.string().max(200).optional(),
});
export type ListInboxesQuery = z.infer<typeof ListInboxesQuery>;

/** New expiry = now + duration (default: the inbox's original TTL), never past created_at + the maximum TTL. */
export const ExtendInboxBody = z.object({ duration: Duration.optional() }).openapi("ExtendInboxRequest");
export type ExtendInboxBody = z.infer<typeof ExtendInboxBody>;

/** `PATCH /inboxes/:id`: `smtp_behaviour` replaces the inbox's whole behaviour (null: normal again); absent: unchanged. */
export const UpdateInboxBody = z.object({ smtp_behaviour: SmtpBehaviour.nullable().optional() }).strict().openapi("UpdateInboxRequest");
export type UpdateInboxBody = z.infer<typeof UpdateInboxBody>;
