import type { EventOf } from "@burnbox/contracts";
import type { TenancyDeps } from "../deps";
import { actorTypeOf, categoryOf, resourceNameOf, severityOf, withoutSecrets } from "./audit-rules";

/**
 * Stores one service's audit event as an entry of the log. Idempotent on the event id (the
 * entry's primary key): a redelivery, a replayed stream or a second replica inserts nothing.
 */
export async function recordAuditEntry(deps: TenancyDeps, event: EventOf<"audit.recorded">): Promise<boolean> {
  const d = event.data;
  const metadata = withoutSecrets(d.metadata) as Record<string, unknown>;
  return deps.data.repos.audit.record({
    id: event.id,
    orgId: event.org_id,
    teamId: event.team_id,
    actorId: d.actor_user_id,
    actorEmail: d.actor_email ? d.actor_email.toLowerCase() : null,
    actorType: actorTypeOf({ userId: d.actor_user_id, apiKeyId: d.actor_api_key_id }),
    actorApiKeyId: d.actor_api_key_id,
    action: d.action,
    category: categoryOf(d.action, d.target_type),
    severity: severityOf(d.action, d.severity),
    resourceType: d.target_type,
    resourceId: d.target_id,
    resourceName: resourceNameOf(d.target_name, metadata),
    // which key acted is worth knowing beside its creator, and is no secret
    metadata: d.actor_api_key_id ? { ...metadata, api_key_id: d.actor_api_key_id } : metadata,
    ipAddress: d.ip_address,
    userAgent: d.user_agent ?? null,
    createdAt: new Date(event.occurred_at),
  });
}
