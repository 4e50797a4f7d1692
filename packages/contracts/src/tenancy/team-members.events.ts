import { z } from "../zod";
import { envelope } from "../messaging/envelope";

/** Tenancy: a user joined a team. */
export const TeamMembersEventType = {
  teamMemberAdded: "team.member_added",
} as const;

/** Tenancy: a user joined a team (`added_by` null: a system action); the added user is notified. */
export const TeamMemberAddedData = z.object({
  user_id: z.string().uuid(),
  team_id: z.string().uuid(),
  team_name: z.string(),
  role: z.string(),
  added_by: z.string().uuid().nullable(),
});

export const TeamMemberAddedEvent = envelope(TeamMembersEventType.teamMemberAdded, TeamMemberAddedData);

/** Every event of this resource (the `DomainEvent` union is built from these lists). */
export const teamMembersEvents = [TeamMemberAddedEvent] as const;
