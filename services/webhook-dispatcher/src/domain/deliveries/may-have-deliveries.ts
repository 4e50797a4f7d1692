import type { WebhookEvent } from "@burnbox/contracts";
import type { DispatcherDeps } from "../deps";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Asked of an event as it arrives, before its schema is checked: false when the team it names has
 * no active webhook subscribed to `type` (most teams: the answer `scheduleDeliveries` would get
 * from the same cached read, and then schedule nothing), so such an event costs no schema check.
 * An event that names no team as a valid one would is left to the schema (true).
 */
export async function mayHaveDeliveries(deps: DispatcherDeps, type: WebhookEvent, raw: unknown): Promise<boolean> {
  const { org_id: orgId, team_id: teamId } = (raw ?? {}) as { org_id?: unknown; team_id?: unknown };
  if (typeof orgId !== "string" || typeof teamId !== "string" || !UUID.test(orgId) || !UUID.test(teamId)) return true;
  return (await deps.data.hot.deliveries.subscribers({ orgId, teamId }, type)).length > 0;
}
