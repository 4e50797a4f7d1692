import { z } from "../zod";
import { PaginationQuery } from "../pagination";
import { Timestamp, Uuid } from "../shared/common.schemas";

/** Contract notes (Audit): an action's category is its resource's, with a few grouped. */
export const AUDIT_CATEGORIES = [
  "auth",
  "org",
  "member",
  "team",
  "domain",
  "inbox",
  "email",
  "webhook",
  "apikey",
  "admin",
  "notification",
] as const;
export const AuditCategory = z.enum(AUDIT_CATEGORIES);
export type AuditCategory = z.infer<typeof AuditCategory>;

export const AUDIT_SEVERITIES = ["info", "warning", "critical"] as const;
export const AuditSeverity = z.enum(AUDIT_SEVERITIES);
export type AuditSeverity = z.infer<typeof AuditSeverity>;

export const AuditActorType = z.enum(["user", "api_key", "system"]);
export type AuditActorType = z.infer<typeof AuditActorType>;

export const AuditEntry = z
  .object({
    id: Uuid,
    org_id: Uuid.nullable(),
    actor_id: Uuid.nullable(),
    actor_email: z.string().nullable(),
    actor_type: AuditActorType,
    action: z.string(),
    resource_type: z.string(),
    resource_id: z.string().nullable(),
    resource_name: z.string().nullable(),
    metadata: z.record(z.string(), z.unknown()),
    ip_address: z.string().nullable(),
    user_agent: z.string().nullable(),
    severity: AuditSeverity,
    category: AuditCategory,
    created_at: Timestamp,
  })
  .openapi("AuditEntry");
export type AuditEntry = z.infer<typeof AuditEntry>;

/** An RFC 3339 date-time with its offset (`2026-11-23T10:00:00Z`, `...+01:00`), as a Date. */
const Rfc3339 = (name: string) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === "") return undefined;
      const d = new Date(v);
      if (!z.iso.datetime({ offset: true }).safeParse(v).success || Number.isNaN(d.getTime())) {
        ctx.addIssue({ code: "custom", message: `${name} must be an RFC 3339 date-time such as 2026-11-23T10:00:00Z` });
        return z.NEVER;
      }
      return d;
    })
    .openapi({ type: "string", format: "date-time" });

const text = z.string().min(1).max(200);

/** The filters of the list and the export; every one optional, an invalid value a 400. */
export const AuditFilterShape = {
  action: text.regex(/^[a-z0-9_]+(\.[a-z0-9_]+)+$/, "action must look like <resource>.<verb>").optional(),
  category: AuditCategory.optional(),
  severity: AuditSeverity.optional(),
  actor_id: Uuid.optional(),
  actor_email: text.optional(),
  resource_type: text.regex(/^[a-z0-9_]+$/, "resource_type must be lowercase letters, digits and underscores").optional(),
  resource_id: text.optional(),
  date_from: Rfc3339("date_from"),
  date_to: Rfc3339("date_to"),
};
const fromBeforeTo = (q: { date_from?: Date | undefined; date_to?: Date | undefined }) =>
  !q.date_from || !q.date_to || q.date_from.getTime() <= q.date_to.getTime();
const fromBeforeToIssue = { message: "date_from must not be after date_to", path: ["date_from"] };

export const ListAuditQuery = PaginationQuery.extend(AuditFilterShape).refine(fromBeforeTo, fromBeforeToIssue);
export type ListAuditQuery = z.infer<typeof ListAuditQuery>;

export const AUDIT_EXPORT_FORMATS = ["csv", "json"] as const;
export const ExportAuditQuery = z
  .object({ ...AuditFilterShape, format: z.enum(AUDIT_EXPORT_FORMATS) })
  .refine(fromBeforeTo, fromBeforeToIssue);
export type ExportAuditQuery = z.infer<typeof ExportAuditQuery>;

/** What both the list and the export narrow by (the query without paging or format). */
export type AuditFilter = Omit<ListAuditQuery, "page" | "per_page">;

/** Contract notes: at most this many rows in one export (`X-Truncated: true` when capped). */
export const AUDIT_EXPORT_MAX_ROWS = 10_000;

/** The CSV export's columns, in the notes' order. */
export const AUDIT_CSV_COLUMNS = [
  "id",
  "created_at",
  "org_id",
  "actor_id",
  "actor_email",
  "actor_type",
  "action",
  "severity",
  "category",
  "resource_type",
  "resource_id",
  "resource_name",
  "ip_address",
  "user_agent",
  "metadata",
] as const satisfies readonly (keyof AuditEntry)[];
