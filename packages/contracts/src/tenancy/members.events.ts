import { z } from "../zod";
import { envelope } from "../messaging/envelope";

/** Tenancy: an org member was added or removed, or a member's role changed. */
export const MembersEventType = {
  memberRemoved: "member.removed",
  memberRoleChanged: "member.role_changed",
  memberAdded: "member.added",
} as const;

/** Tenancy: a user left an org (`team_id` null: every team of it) or one team. */
export const MemberRemovedData = z.object({ user_id: z.string().uuid(), team_id: z.string().uuid().nullable() });
/** Tenancy: a user's org role (`team_id` null) or team role changed. */
export const MemberRoleChangedData = z.object({
  user_id: z.string().uuid(),
  team_id: z.string().uuid().nullable(),
  old_role: z.string(),
  new_role: z.string(),
});
/** Tenancy: a user joined an org. */
export const MemberAddedData = z.object({ user_id: z.string().uuid(), role: z.string() });

export const MemberRemovedEvent = envelope(MembersEventType.memberRemoved, MemberRemovedData);
export const MemberRoleChangedEvent = envelope(MembersEventType.memberRoleChanged, MemberRoleChangedData);
export const MemberAddedEvent = envelope(MembersEventType.memberAdded, MemberAddedData);

/** Every event of this resource (the `DomainEvent` union is built from these lists). */
export const membersEvents = [MemberRemovedEvent, MemberRoleChangedEvent, MemberAddedEvent] as const;
