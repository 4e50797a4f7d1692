import { z } from "../zod";
import { authEvents, AuthEventType } from "../identity/auth.events";
import { platformEvents, PlatformEventType } from "../identity/platform.events";
import { ssoEvents, SsoEventType } from "../identity/sso.events";
import { emailsEvents, EmailsEventType } from "../inbox/emails.events";
import { inboxesEvents, InboxesEventType } from "../inbox/inboxes.events";
import { auditEvents, AuditEventType } from "../tenancy/audit.events";
import { domainsEvents, DomainsEventType } from "../tenancy/domains.events";
import { invitesEvents, InvitesEventType } from "../tenancy/invites.events";
import { membersEvents, MembersEventType } from "../tenancy/members.events";
import { orgsEvents, OrgsEventType } from "../tenancy/orgs.events";
import { platformConfigEvents, PlatformConfigEventType } from "../tenancy/platform-config.events";
import { teamMembersEvents, TeamMembersEventType } from "../tenancy/team-members.events";
import { teamsEvents, TeamsEventType } from "../tenancy/teams.events";

/**
 * Every event type, by name: the events themselves (data schemas and envelopes) live per service
 * and resource, beside the routes (`<service>/<resource>.events.ts`). Event types travel as
 * `<object>.<action>`.
 */
export const EventType = {
  ...InboxesEventType,
  ...EmailsEventType,
  ...AuditEventType,
  ...OrgsEventType,
  ...TeamsEventType,
  ...MembersEventType,
  ...TeamMembersEventType,
  ...DomainsEventType,
  ...InvitesEventType,
  ...PlatformConfigEventType,
  ...SsoEventType,
  ...AuthEventType,
  ...PlatformEventType,
} as const;
export type EventType = (typeof EventType)[keyof typeof EventType];

/** The three events a webhook may subscribe to (spec 6.1). */
export const WEBHOOK_EVENTS = [EventType.emailReceived, EventType.inboxCreated, EventType.inboxExpired] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const DomainEvent = z.discriminatedUnion("type", [
  ...inboxesEvents,
  ...emailsEvents,
  ...auditEvents,
  ...orgsEvents,
  ...teamsEvents,
  ...membersEvents,
  ...teamMembersEvents,
  ...domainsEvents,
  ...invitesEvents,
  ...platformConfigEvents,
  ...ssoEvents,
  ...authEvents,
  ...platformEvents,
]);
export type DomainEvent = z.infer<typeof DomainEvent>;
export type EventOf<T extends EventType> = Extract<DomainEvent, { type: T }>;
export type WebhookDomainEvent = EventOf<WebhookEvent>;
