import { z } from "../zod";
import { PaginationQuery, paginated } from "../pagination";
import { Duration, IdParams, TeamParams, Timestamp, Uuid, errorResponses } from "./common";
import { defineRoutes } from "./route";

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
  })
  .openapi("Inbox");
export type Inbox = z.infer<typeof Inbox>;

export const CreateInboxBody = z
  .object({
    domain_assignment_id: Uuid,
    alias: z.string().toLowerCase().regex(INBOX_ALIAS_PATTERN, "alias: 2-64 of a-z 0-9 . _ -, starting and ending alphanumeric").optional(),
    ttl: Duration.optional(),
    private: z.boolean().optional(),
  })
  .openapi("CreateInboxRequest");
export type CreateInboxBody = z.infer<typeof CreateInboxBody>;

export const ListInboxesQuery = PaginationQuery.extend({ team_id: Uuid.optional() });

export const EmailSummary = z
  .object({
    id: Uuid,
    inbox_id: Uuid,
    from_address: z.string(),
    subject: z.string(),
    snippet: z.string(),
    has_attachments: z.boolean(),
    is_read: z.boolean(),
    size_bytes: z.number().int(),
    received_at: Timestamp,
  })
  .openapi("EmailSummary");
export type EmailSummary = z.infer<typeof EmailSummary>;

export const Attachment = z
  .object({ id: Uuid, filename: z.string(), content_type: z.string(), size_bytes: z.number().int() })
  .openapi("Attachment");

export const Email = z
  .object({
    id: Uuid,
    inbox_id: Uuid,
    message_id: z.string().nullable(),
    from_address: z.string(),
    to_address: z.string(),
    subject: z.string(),
    body_text: z.string().nullable(),
    body_html: z.string().nullable(),
    headers: z.record(z.string(), z.string()),
    size_bytes: z.number().int(),
    is_read: z.boolean(),
    received_at: Timestamp,
    attachments: z.array(Attachment),
  })
  .openapi("Email");
export type Email = z.infer<typeof Email>;

export const ListEmailsQuery = PaginationQuery.extend({ q: z.string().max(200).optional() });

export const inboxRoutes = defineRoutes([
  {
    operationId: "createInbox",
    method: "post",
    path: "/inboxes",
    service: "inbox",
    auth: "user",
    scope: "team.inboxes.create",
    tag: "Inboxes",
    summary: "Create an inbox on a domain assigned to one of the caller's teams",
    request: { body: CreateInboxBody },
    responses: { 201: { description: "Created", schema: Inbox }, 400: errorResponses[400], 409: { description: "Address taken" } },
  },
  {
    operationId: "listInboxes",
    method: "get",
    path: "/inboxes",
    service: "inbox",
    auth: "user",
    scope: "team.inboxes.view",
    tag: "Inboxes",
    summary: "List the inboxes the caller can see",
    request: { query: ListInboxesQuery },
    responses: { 200: { description: "Inboxes", schema: paginated(Inbox, "InboxPage") } },
  },
  {
    operationId: "getInbox",
    method: "get",
    path: "/inboxes/{id}",
    service: "inbox",
    auth: "user",
    scope: "team.inboxes.view",
    tag: "Inboxes",
    summary: "Get an inbox",
    request: { params: IdParams },
    responses: { 200: { description: "The inbox", schema: Inbox }, 404: errorResponses[404] },
  },
  {
    operationId: "listTeamInboxes",
    method: "get",
    path: "/orgs/{orgId}/teams/{teamId}/inboxes",
    service: "inbox",
    auth: "user",
    scope: "team.inboxes.view",
    tag: "Inboxes",
    summary: "List the inboxes of a team",
    request: { params: TeamParams, query: PaginationQuery },
    responses: { 200: { description: "Inboxes", schema: paginated(Inbox, "TeamInboxPage") }, 403: errorResponses[403] },
  },
  {
    operationId: "listEmails",
    method: "get",
    path: "/inboxes/{id}/emails",
    service: "inbox",
    auth: "user",
    scope: "team.emails.view",
    tag: "Emails",
    summary: "List the emails of an inbox, newest first",
    request: { params: IdParams, query: ListEmailsQuery },
    responses: { 200: { description: "Emails", schema: paginated(EmailSummary, "EmailPage") }, 404: errorResponses[404] },
  },
  {
    operationId: "getEmail",
    method: "get",
    path: "/emails/{id}",
    service: "inbox",
    auth: "user",
    scope: "team.emails.view",
    tag: "Emails",
    summary: "Get one email",
    request: { params: IdParams },
    responses: { 200: { description: "The email", schema: Email }, 404: errorResponses[404] },
  },
] as const);
