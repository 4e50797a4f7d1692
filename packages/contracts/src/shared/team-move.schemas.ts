import { z } from "../zod";

/**
 * Tenancy has each service holding team data (identity, inbox, webhook-dispatcher) re-file a
 * transferred team's rows before it answers the transfer (read your writes: the new org reads them
 * at once). `event_id` is the `team.transferred` event's: the service's move is claimed under it,
 * so the event, when it arrives, changes nothing.
 */
export const MoveTeamRequest = z.object({
  event_id: z.string().uuid(),
  team_id: z.string().uuid(),
  from_org_id: z.string().uuid(),
  to_org_id: z.string().uuid(),
});
export const MoveTeamReply = z.object({});
