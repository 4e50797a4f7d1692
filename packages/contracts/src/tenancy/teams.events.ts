import { z } from "../zod";
import { envelope } from "../messaging/envelope";

/** Tenancy: a team was archived, restored, deleted or moved to another org. */
export const TeamsEventType = {
  teamArchived: "team.archived",
  teamRestored: "team.restored",
  teamDeleted: "team.deleted",
  teamTransferred: "team.transferred",
} as const;

/** Tenancy: a team became read-only (archived) or writable again (restored), or was deleted with its data. */
export const TeamStateData = z.object({ team_id: z.string().uuid() });
/** Tenancy: a team moved to another org (system admins); every service re-files the team's data under `to_org_id`. */
export const TeamTransferredData = z.object({
  team_id: z.string().uuid(),
  from_org_id: z.string().uuid(),
  to_org_id: z.string().uuid(),
});

export const TeamArchivedEvent = envelope(TeamsEventType.teamArchived, TeamStateData);
export const TeamRestoredEvent = envelope(TeamsEventType.teamRestored, TeamStateData);
export const TeamDeletedEvent = envelope(TeamsEventType.teamDeleted, TeamStateData);
export const TeamTransferredEvent = envelope(TeamsEventType.teamTransferred, TeamTransferredData);

/** Every event of this resource (the `DomainEvent` union is built from these lists). */
export const teamsEvents = [TeamArchivedEvent, TeamRestoredEvent, TeamDeletedEvent, TeamTransferredEvent] as const;
