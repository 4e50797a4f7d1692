import { z } from "../zod";
import { envelope } from "../messaging/envelope";

/** Tenancy: an invite was sent or accepted. */
export const InvitesEventType = {
  inviteCreated: "invite.created",
  inviteAccepted: "invite.accepted",
} as const;

/** Tenancy: an invite was sent (never the token). */
export const InviteCreatedData = z.object({
  invite_id: z.string().uuid(),
  email: z.string(),
  org_role: z.string(),
  invited_by: z.string().uuid(),
  expires_at: z.string(),
});
/** Tenancy: an invite was accepted; `invited_by` gets the notification, identity marks the email verified. */
export const InviteAcceptedData = z.object({
  org_id: z.string().uuid(),
  invite_id: z.string().uuid(),
  email: z.string(),
  user_id: z.string().uuid(),
  invited_by: z.string().uuid(),
});

export const InviteCreatedEvent = envelope(InvitesEventType.inviteCreated, InviteCreatedData);
export const InviteAcceptedEvent = envelope(InvitesEventType.inviteAccepted, InviteAcceptedData);

/** Every event of this resource (the `DomainEvent` union is built from these lists). */
export const invitesEvents = [InviteCreatedEvent, InviteAcceptedEvent] as const;
