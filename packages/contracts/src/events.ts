import { z } from "./zod";
import { Authentication, AuthenticationSummary } from "./inbox/authentication.schemas";
import { EmailSummary } from "./inbox/emails.schemas";
import { Extracted, nothingExtracted } from "./inbox/extracted.schemas";

/**
 * Event types travel as `<object>.<action>`; `version` is bumped (never the name changed)
 * when a payload changes incompatibly.
 */
export const EventType = {
  inboxCreated: "inbox.created",
  emailReceived: "email.received",
  inboxExpired: "inbox.expired",
  inboxDeleted: "inbox.deleted",
  auditRecorded: "audit.recorded",
  orgDeleted: "org.deleted",
  teamArchived: "team.archived",
  teamRestored: "team.restored",
  teamDeleted: "team.deleted",
  memberRemoved: "member.removed",
  memberRoleChanged: "member.role_changed",
  domainVerified: "domain.verified",
  teamTransferred: "team.transferred",
  userSsoProvisioned: "user.sso_provisioned",
  inviteCreated: "invite.created",
  inviteAccepted: "invite.accepted",
  inviteRedeemed: "invite.redeemed",
  memberAdded: "member.added",
  teamMemberAdded: "team.member_added",
  domainTransferred: "domain.transferred",
  mailerConfigChanged: "platform.mailer_config_changed",
  storageConfigChanged: "platform.storage_config_changed",
  platformSettingsChanged: "platform.settings_changed",
} as const;
export type EventType = (typeof EventType)[keyof typeof EventType];

/** The three events a webhook may subscribe to (spec 6.1). */
export const WEBHOOK_EVENTS = [EventType.emailReceived, EventType.inboxCreated, EventType.inboxExpired] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const InboxCreatedData = z.object({
  inbox_id: z.string().uuid(),
  team_id: z.string().uuid(),
  address: z.string(),
  full_address: z.string(),
  expires_at: z.string(),
  /** The inbox's creator (notifications go to them); absent on events from before it was added. */
  created_by: z.string().uuid().optional(),
});
export const EmailReceivedData = z.object({
  email_id: z.string().uuid(),
  inbox_id: z.string().uuid(),
  team_id: z.string().uuid(),
  from: z.string(),
  to: z.string(),
  subject: z.string(),
  received_at: z.string(),
  /** The raw message's size in bytes (analytics: storage); absent on events from before it was added. */
  size_bytes: z.number().int().nonnegative().optional(),
  /** The inbox's creator (notifications go to them); absent on events from before it was added. */
  created_by: z.string().uuid().optional(),
  /**
   * Summary for WebSocket frames (contract notes: email summary with inbox_id), the REST list item
   * without `extracted` (carried once, below; the frame is the summary with it).
   */
  summary: EmailSummary.omit({ extracted: true, authentication_summary: true })
    // absent on events from before authentication results existed
    .extend({ authentication_summary: AuthenticationSummary.optional() })
    .optional(),
  /**
   * The codes and links found at intake (extensions section 2), in the webhook body and the
   * WebSocket frame; read as empty lists on events from before it was added.
   */
  extracted: Extracted.default(nothingExtracted),
  /**
   * The authentication results worked out at intake (extensions section 3), in the webhook body;
   * null when the intake had them turned off, absent on events from before they existed.
   */
  authentication: Authentication.nullable().optional(),
});
export const InboxExpiredData = z.object({
  inbox_id: z.string().uuid(),
  team_id: z.string().uuid(),
  full_address: z.string(),
  expired_at: z.string(),
  /** The inbox's creator (notifications go to them); absent on events from before it was added. */
  created_by: z.string().uuid().optional(),
});
/** An inbox deleted by a user before its TTL (not a webhook event): realtime closes its sockets. */
export const InboxDeletedData = z.object({
  inbox_id: z.string().uuid(),
  team_id: z.string().uuid(),
  full_address: z.string(),
  deleted_at: z.string(),
  /**
   * Whether it was still active (not deactivated by a domain transfer), so tenancy's inbox counters
   * still held it; absent on events from before it was added and on a deleted tenant's inboxes.
   */
  was_active: z.boolean().optional(),
});
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

/** Tenancy: an org and everything in it is gone; every service deletes that org's data. */
export const OrgDeletedData = z.object({ org_id: z.string().uuid(), team_ids: z.array(z.string().uuid()) });
/** Tenancy: a team became read-only (archived) or writable again (restored), or was deleted with its data. */
export const TeamStateData = z.object({ team_id: z.string().uuid() });
/** Tenancy: a user left an org (`team_id` null: every team of it) or one team. */
export const MemberRemovedData = z.object({ user_id: z.string().uuid(), team_id: z.string().uuid().nullable() });
/** Tenancy: a user's org role (`team_id` null) or team role changed. */
export const MemberRoleChangedData = z.object({
  user_id: z.string().uuid(),
  team_id: z.string().uuid().nullable(),
  old_role: z.string(),
  new_role: z.string(),
});
/** Tenancy: a domain's DNS checks passed (MX and TXT). */
export const DomainVerifiedData = z.object({ domain_id: z.string().uuid(), domain_name: z.string() });
/**
 * Platform configuration changed (tenancy: mailer or storage; identity: platform settings). The
 * event names what changed and carries no value, never a secret: every replica of a service that
 * uses it fetches the current configuration over an RPC (secrets sealed) and applies it.
 */
export const PlatformConfigChangedData = z.object({});

/** Tenancy: a team moved to another org (system admins); every service re-files the team's data under `to_org_id`. */
export const TeamTransferredData = z.object({
  team_id: z.string().uuid(),
  from_org_id: z.string().uuid(),
  to_org_id: z.string().uuid(),
});
/**
 * Identity: a user created by a first SSO login, with the org and team memberships its domain
 * mapping (or the provider's defaults) gives; written in the user's own transaction, so tenancy
 * creates the memberships even when it was down at sign-in.
 */
export const UserSsoProvisionedData = z.object({
  user_id: z.string().uuid(),
  provider: z.string().max(100),
  memberships: z
    .array(
      z.object({
        org_id: z.string().uuid(),
        org_role: z.string(),
        team_id: z.string().uuid().nullable(),
        team_role: z.string().nullable(),
      }),
    )
    .max(100),
});

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
/**
 * Identity: a user registered with an invite (`POST /auth/register {invite_token}`), written in the
 * user's own transaction, so tenancy makes them a member even when it was down at registration.
 * Carries the token's SHA-256 (what tenancy stores), never the token.
 */
export const InviteRedeemedData = z.object({
  user_id: z.string().uuid(),
  email: z.string(),
  token_hash: z.string().regex(/^[0-9a-f]{64}$/),
});
/** Tenancy: a user joined an org. */
export const MemberAddedData = z.object({ user_id: z.string().uuid(), role: z.string() });
/** Tenancy: a user joined a team (`added_by` null: a system action); the added user is notified. */
export const TeamMemberAddedData = z.object({
  user_id: z.string().uuid(),
  team_id: z.string().uuid(),
  team_name: z.string(),
  role: z.string(),
  added_by: z.string().uuid().nullable(),
});
/** Tenancy: a domain moved to another org (system admins); its assignments were removed. */
export const DomainTransferredData = z.object({
  domain_id: z.string().uuid(),
  domain_name: z.string(),
  from_org_id: z.string().uuid(),
  to_org_id: z.string().uuid(),
  removed_team_ids: z.array(z.string().uuid()),
});

const envelope = <T extends string, D extends z.ZodTypeAny>(type: T, data: D) =>
  z.object({
    id: z.string().uuid(),
    type: z.literal(type),
    version: z.literal(1),
    occurred_at: z.string(),
    org_id: z.string().uuid().nullable(),
    team_id: z.string().uuid().nullable(),
    data,
  });

export const InboxCreatedEvent = envelope(EventType.inboxCreated, InboxCreatedData);
export const EmailReceivedEvent = envelope(EventType.emailReceived, EmailReceivedData);
export const InboxExpiredEvent = envelope(EventType.inboxExpired, InboxExpiredData);
export const InboxDeletedEvent = envelope(EventType.inboxDeleted, InboxDeletedData);
export const AuditRecordedEvent = envelope(EventType.auditRecorded, AuditRecordedData);
export const OrgDeletedEvent = envelope(EventType.orgDeleted, OrgDeletedData);
export const TeamArchivedEvent = envelope(EventType.teamArchived, TeamStateData);
export const TeamRestoredEvent = envelope(EventType.teamRestored, TeamStateData);
export const TeamDeletedEvent = envelope(EventType.teamDeleted, TeamStateData);
export const MemberRemovedEvent = envelope(EventType.memberRemoved, MemberRemovedData);
export const MemberRoleChangedEvent = envelope(EventType.memberRoleChanged, MemberRoleChangedData);
export const DomainVerifiedEvent = envelope(EventType.domainVerified, DomainVerifiedData);
export const TeamTransferredEvent = envelope(EventType.teamTransferred, TeamTransferredData);
export const UserSsoProvisionedEvent = envelope(EventType.userSsoProvisioned, UserSsoProvisionedData);
export const InviteCreatedEvent = envelope(EventType.inviteCreated, InviteCreatedData);
export const InviteAcceptedEvent = envelope(EventType.inviteAccepted, InviteAcceptedData);
export const InviteRedeemedEvent = envelope(EventType.inviteRedeemed, InviteRedeemedData);
export const MemberAddedEvent = envelope(EventType.memberAdded, MemberAddedData);
export const TeamMemberAddedEvent = envelope(EventType.teamMemberAdded, TeamMemberAddedData);
export const DomainTransferredEvent = envelope(EventType.domainTransferred, DomainTransferredData);
export const MailerConfigChangedEvent = envelope(EventType.mailerConfigChanged, PlatformConfigChangedData);
export const StorageConfigChangedEvent = envelope(EventType.storageConfigChanged, PlatformConfigChangedData);
export const PlatformSettingsChangedEvent = envelope(EventType.platformSettingsChanged, PlatformConfigChangedData);

export const DomainEvent = z.discriminatedUnion("type", [
  InboxCreatedEvent,
  EmailReceivedEvent,
  InboxExpiredEvent,
  InboxDeletedEvent,
  AuditRecordedEvent,
  OrgDeletedEvent,
  TeamArchivedEvent,
  TeamRestoredEvent,
  TeamDeletedEvent,
  MemberRemovedEvent,
  MemberRoleChangedEvent,
  DomainVerifiedEvent,
  TeamTransferredEvent,
  UserSsoProvisionedEvent,
  MailerConfigChangedEvent,
  StorageConfigChangedEvent,
  PlatformSettingsChangedEvent,
  InviteCreatedEvent,
  InviteAcceptedEvent,
  InviteRedeemedEvent,
  MemberAddedEvent,
  TeamMemberAddedEvent,
  DomainTransferredEvent,
]);
export type DomainEvent = z.infer<typeof DomainEvent>;
export type EventOf<T extends EventType> = Extract<DomainEvent, { type: T }>;
export type WebhookDomainEvent = EventOf<WebhookEvent>;

/** Subjects are namespaced so that several installations (or test runs) share one NATS safely. */
export const subjects = (namespace: string) =>
  ({
    stream: `${namespace.toUpperCase().replace(/[^A-Z0-9_]/g, "_")}_EVENTS`,
    dlqStream: `${namespace.toUpperCase().replace(/[^A-Z0-9_]/g, "_")}_DLQ`,
    eventsWildcard: `${namespace}.events.>`,
    event: (type: EventType) => `${namespace}.events.${type}`,
    dlq: (consumer: string) => `${namespace}.dlq.${consumer}`,
    dlqWildcard: `${namespace}.dlq.>`,
    rpc: (name: RpcName) => `${namespace}.rpc.${name}`,
    /**
     * Core NATS broadcast (every replica, no stream): what a commit changed, one subject per event
     * type or change subject (`ChangeSubject`); the per-process caches that registered it drop what it names.
     */
    changes: (type: string) => `${namespace}.changes.${type}`,
    /** Core NATS request/reply: any one process of `service` answers with its checks (admin health). */
    health: (service: string) => `${namespace}.health.${service}`,
  }) as const;

/**
 * Changes a service commits without a domain event that another service's cache depends on
 * (published by the owner's unit of work, see service-kit's `publishChanges`).
 */
export const ChangeSubject = {
  /** identity changed (or removed) the key with hash `data.hash`: the gateways drop their copy. */
  apiKeyState: "api_keys.state_changed",
} as const;

/** The data of an `api_keys.state_changed` change. */
export interface ApiKeyStateChange {
  hash: string;
}

export const RpcName = {
  authorize: "tenancy.authorize",
  getAssignment: "tenancy.get_assignment",
  getInboxAccess: "inbox.get_inbox_access",
  domainInboxCounts: "inbox.domain_inbox_counts",
  demoConfig: "inbox.demo_config",
  teamNames: "tenancy.team_names",
  listActorTeams: "tenancy.list_actor_teams",
  resolveApiKey: "identity.resolve_api_key",
  sessionStatus: "identity.session_status",
  lookupUsers: "identity.lookup_users",
  verifyPassword: "identity.verify_password",
  checkProvisioningTarget: "tenancy.check_provisioning_target",
  provisionMembership: "tenancy.provision_membership",
  ssoEnforced: "tenancy.sso_enforced",
  teamScopes: "tenancy.team_scopes",
  checkInvite: "tenancy.check_invite",
  redeemInvite: "tenancy.redeem_invite",
  removeTenantKeys: "identity.remove_tenant_keys",
  markInvitedEmailVerified: "identity.mark_invited_email_verified",
  moveTeamApiKeys: "identity.move_team",
  moveTeamInboxes: "inbox.move_team",
  moveTeamWebhooks: "webhooks.move_team",
  deactivateDomainInboxes: "inbox.deactivate_domain_inboxes",
  sendInviteMail: "identity.send_invite_mail",
  adminStats: "tenancy.admin_stats",
  countUsers: "identity.count_users",
  mailerConfig: "tenancy.mailer_config",
  storageConfig: "tenancy.storage_config",
  platformSettings: "identity.platform_settings",
  setupState: "identity.setup_state",
  setupCreateAdmin: "identity.setup_create_admin",
  setupAbort: "identity.setup_abort",
} as const;
export type RpcName = (typeof RpcName)[keyof typeof RpcName];
