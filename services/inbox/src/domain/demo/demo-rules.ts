import type { TeamScope } from "@burnbox/service-kit/data";

/**
 * The tenant that owns demo inboxes: the platform itself, which is no org or team of anyone, so
 * no caller's permission ever reaches a demo inbox through the tenant routes.
 */
export const PLATFORM_ID = "00000000-0000-0000-0000-000000000000";
export const PLATFORM_SCOPE: TeamScope = { orgId: PLATFORM_ID, teamId: PLATFORM_ID };

/** Whether an inbox belongs to the demo (readable only through `/try`). */
export const isDemoInbox = (inbox: { org_id: string; team_id: string }): boolean =>
  inbox.org_id === PLATFORM_ID && inbox.team_id === PLATFORM_ID;

const HOUR_MS = 60 * 60 * 1000;

/** The clock hour `now` falls in, and the whole seconds (at least 1) until the next one: the per-IP demo window. */
export function demoWindow(now: number): { start: Date; retryAfterSeconds: number } {
  const start = Math.floor(now / HOUR_MS) * HOUR_MS;
  return { start: new Date(start), retryAfterSeconds: Math.max(1, Math.ceil((start + HOUR_MS - now) / 1000)) };
}
