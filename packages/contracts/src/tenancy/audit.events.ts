import { z } from "../zod";
import { envelope } from "../messaging/envelope";

/** Every service (its unit of work): an audit entry, kept by tenancy's audit log. */
export const AuditEventType = {
  auditRecorded: "audit.recorded",
} as const;

export const AuditRecordedData = z.object({
  action: z.string(),
  actor_user_id: z.string().uuid().nullable(),
  actor_api_key_id: z.string().uuid().nullable(),
  target_type: z.string(),
  target_id: z.string().nullable(),
  ip_address: z.string().nullable(),
  metadata: z.record(z.string(), z.unknown()),
  /** The actor's email when the change was made (absent for the system and on older events). */
  actor_email: z.string().optional(),
  user_agent: z.string().optional(),
  /** The affected record's human name (inbox address, key or team name, webhook URL, email subject). */
  target_name: z.string().optional(),
  /** Set by emitters whose action is more than `info` (default: derived from the action by the audit log). */
  severity: z.enum(["info", "warning", "critical"]).optional(),
});

export const AuditRecordedEvent = envelope(AuditEventType.auditRecorded, AuditRecordedData);

/** Every event of this resource (the `DomainEvent` union is built from these lists). */
export const auditEvents = [AuditRecordedEvent] as const;
