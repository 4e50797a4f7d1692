import { z } from "./zod";
import { RpcName } from "./events";
import {
  SetupAbortReply,
  SetupAbortRequest,
  SetupCreateAdminReply,
  SetupCreateAdminRequest,
  SetupStateReply,
  SetupStateRequest,
} from "./setup-rpc";
import { PermissionSchema } from "./permissions";
import { AccessLevel } from "./tenancy/domain-assignments.schemas";
import { AdminStats } from "./tenancy/admin-stats.schemas";

/** The caller as every service sees it, from the gateway's signed internal context. */
export const Actor = z.object({
  user_id: z.string().uuid(),
  email: z.string(),
  is_system_admin: z.boolean(),
  session_id: z.string().nullable(),
  api_key: z.object({ id: z.string().uuid(), team_id: z.string().uuid(), scopes: z.array(z.string()) }).nullable(),
});
export type Actor = z.infer<typeof Actor>;

export const InternalContext = z.object({
  actor: Actor.nullable(),
  client_ip: z.string(),
  request_id: z.string(),
  traceparent: z.string().optional(),
  exp: z.number().int(),
});
export type InternalContext = z.infer<typeof InternalContext>;

export const AuthorizeRequest = z.object({
  actor: Actor,
  org_id: z.string().uuid(),
  team_id: z.string().uuid().nullable(),
  permission: PermissionSchema,
});
export type AuthorizeRequest = z.infer<typeof AuthorizeRequest>;
export const AuthorizeReply = z.object({
  allowed: z.boolean(),
  /** org_not_found | team_not_found | not_member | missing_permission | team_archived */
  reason: z.string().nullable(),
});
export type AuthorizeReply = z.infer<typeof AuthorizeReply>;

export const GetAssignmentRequest = z.object({ assignment_id: z.string().uuid() });
export const GetAssignmentReply = z.object({
  assignment: z
    .object({
      id: z.string().uuid(),
      org_id: z.string().uuid(),
      team_id: z.string().uuid(),
      domain_id: z.string().uuid(),
      domain_name: z.string(),
      access_level: AccessLevel,
      domain_verified: z.boolean(),
      team_archived: z.boolean(),
      default_ttl_seconds: z.number().int().nullable(),
      max_ttl_seconds: z.number().int().nullable(),
      /** Active inboxes the domain may hold: the smallest `max_inboxes_per_domain` of org, domain, team and assignment. */
      max_inboxes_per_domain: z.number().int().positive(),
    })
    .nullable(),
});
export type GetAssignmentReply = z.infer<typeof GetAssignmentReply>;

export const GetInboxAccessRequest = z.object({ inbox_id: z.string().uuid() });
export const GetInboxAccessReply = z.object({
  inbox: z
    .object({
      id: z.string().uuid(),
      org_id: z.string().uuid(),
      team_id: z.string().uuid(),
      created_by: z.string().uuid(),
      private: z.boolean(),
      is_active: z.boolean(),
    })
    .nullable(),
});
export type GetInboxAccessReply = z.infer<typeof GetInboxAccessReply>;

/**
 * Tenancy asks the inbox service how many inboxes live on some of an org's domains (only a team's,
 * with `team_id`): the domain impact and the delete checks read them where they are kept.
 * Active: not deactivated and not past `expires_at`; total: every inbox still stored.
 */
export const DomainInboxCountsRequest = z.object({
  org_id: z.string().uuid(),
  domain_ids: z.array(z.string().uuid()).max(100),
  team_id: z.string().uuid().nullable(),
});
export const DomainInboxCountsReply = z.object({
  counts: z.array(z.object({ domain_id: z.string().uuid(), active_inboxes: z.number().int(), total_inboxes: z.number().int() })),
});
export type DomainInboxCountsReply = z.infer<typeof DomainInboxCountsReply>;

/** Identity asks the inbox service its configured `demo.enabled` (what a platform without a saved `demo_enabled` runs with). */
export const DemoConfigRequest = z.object({});
export const DemoConfigReply = z.object({ enabled: z.boolean() });

/** Identity asks tenancy the names of teams, each with its org (SSO mapping previews); a team not in that org is left out. */
export const TeamNamesRequest = z.object({
  teams: z.array(z.object({ org_id: z.string().uuid(), team_id: z.string().uuid() })).max(100),
});
export const TeamNamesReply = z.object({ teams: z.array(z.object({ team_id: z.string().uuid(), name: z.string() })) });

/** Teams (with their org) in which the actor holds `permission`; used to list across teams. */
export const ListActorTeamsRequest = z.object({ actor: Actor, permission: PermissionSchema });
export const ListActorTeamsReply = z.object({
  teams: z.array(z.object({ org_id: z.string().uuid(), team_id: z.string().uuid() })),
});
export type ListActorTeamsReply = z.infer<typeof ListActorTeamsReply>;

/** The gateway resolves a `bb_` credential by the SHA-256 (hex) of the whole key. */
export const ResolveApiKeyRequest = z.object({ key_hash: z.string().regex(/^[0-9a-f]{64}$/) });
export const ResolvedApiKey = z.object({
  id: z.string().uuid(),
  team_id: z.string().uuid(),
  scopes: z.array(z.string()),
  is_active: z.boolean(),
  expires_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
  allowed_ips: z.array(z.string()),
  creator: z.object({ user_id: z.string().uuid(), email: z.string() }),
});
export type ResolvedApiKey = z.infer<typeof ResolvedApiKey>;
export const ResolveApiKeyReply = z.object({ key: ResolvedApiKey.nullable() });

/**
 * Whether a session may still use its access tokens. The gateway asks identity (the source of
 * truth in Postgres) when Redis cannot answer: down, or restarted and not yet re-seeded.
 */
export const SessionStatusRequest = z.object({ session_id: z.string().min(1).max(200) });
export const SessionStatusReply = z.object({ revoked: z.boolean() });
export type SessionStatusReply = z.infer<typeof SessionStatusReply>;

/** Tenancy asks identity who its members are (by ids or by emails): the fields a Member shows. */
export const LookupUsersRequest = z.object({
  user_ids: z.array(z.string().uuid()).max(1000).default([]),
  emails: z.array(z.string().max(320)).max(1000).default([]),
});
export const LookedUpUser = z.object({
  id: z.string().uuid(),
  email: z.string(),
  display_name: z.string(),
  last_login_at: z.string().nullable(),
});
export type LookedUpUser = z.infer<typeof LookedUpUser>;
export const LookupUsersReply = z.object({ users: z.array(LookedUpUser) });

/** Tenancy confirms a dangerous change (deleting an org) with the caller's password. */
export const VerifyPasswordRequest = z.object({ user_id: z.string().uuid(), password: z.string().max(1000) });
/** `has_password` false: an SSO-only account, which confirms another way. */
export const VerifyPasswordReply = z.object({ valid: z.boolean(), has_password: z.boolean() });

/** Where an SSO domain mapping provisions: an org, and optionally one of its teams, with roles. */
export const ProvisioningTarget = z.object({
  org_id: z.string().uuid(),
  org_role: z.string().min(1).max(100),
  team_id: z.string().uuid().nullable().default(null),
  team_role: z.string().min(1).max(100).nullable().default(null),
});
/** Identity checks a mapping's target before saving it: the org exists, the team is in it, the roles are known. */
export const CheckProvisioningTargetRequest = ProvisioningTarget;
export const CheckProvisioningTargetReply = z.object({
  /** null when valid; else org_not_found | team_not_found | unknown_org_role | unknown_team_role */
  problem: z.string().nullable(),
});
/**
 * Identity asks tenancy to make a newly provisioned SSO user a member of the org (and team): a
 * system action, idempotent (an existing membership is kept as is); an archived team is skipped.
 */
export const ProvisionMembershipRequest = ProvisioningTarget.extend({ user_id: z.string().uuid(), provider: z.string().max(100) });
export const ProvisionMembershipReply = z.object({
  org: z.enum(["added", "existing", "org_not_found", "unknown_role"]),
  team: z.enum(["added", "existing", "skipped_archived", "team_not_found", "unknown_role", "none"]),
});
export type ProvisionMembershipReply = z.infer<typeof ProvisionMembershipReply>;
/** Whether any org the user belongs to enforces SSO (password logins are then refused). */
export const SsoEnforcedRequest = z.object({ user_id: z.string().uuid() });
export const SsoEnforcedReply = z.object({ enforced: z.boolean() });

/**
 * The saved platform mailer and storage (tenancy), for identity's mailer and the inbox's store:
 * null when none is saved (the service's own `mail.*` / `storage.*` apply). Secrets travel sealed
 * (AES-256-GCM with `encryption.key`, which every service holds) and are opened by the caller.
 */
export const PlatformConfigRequest = z.object({});
export const SavedMailerConfig = z.object({
  host: z.string(),
  port: z.number().int(),
  username: z.string(),
  from: z.string(),
  tls: z.boolean(),
  password_sealed: z.string().nullable(),
});
export type SavedMailerConfig = z.infer<typeof SavedMailerConfig>;
export const MailerConfigReply = z.object({ mailer: SavedMailerConfig.nullable() });
export const SavedStorageConfig = z.object({
  provider: z.enum(["local", "s3"]),
  local_path: z.string().nullable(),
  endpoint: z.string().nullable(),
  bucket: z.string().nullable(),
  region: z.string().nullable(),
  access_key: z.string().nullable(),
  use_ssl: z.boolean(),
  secret_key_sealed: z.string().nullable(),
});
export type SavedStorageConfig = z.infer<typeof SavedStorageConfig>;
export const StorageConfigReply = z.object({ storage: SavedStorageConfig.nullable() });
/** Identity's platform settings (PUT /admin/platform) as other services apply them; null = not set (their configuration applies). */
export const PlatformSettingsReply = z.object({
  max_sessions_per_user: z.number().int(),
  allow_registration: z.boolean(),
  demo_enabled: z.boolean().nullable(),
  default_inbox_ttl: z.string().nullable(),
  max_inbox_ttl: z.string().nullable(),
});
export type PlatformSettingsReply = z.infer<typeof PlatformSettingsReply>;

/** The platform's figures (spec 2.7) for the admin-stats stream: one request per interval per replica. */
export const AdminStatsRequest = z.object({});
export const AdminStatsReply = AdminStats;
/** How many accounts exist (tenancy's admin stats). */
export const CountUsersRequest = z.object({});
export const CountUsersReply = z.object({ total_users: z.number().int() });

/**
 * The team permission keys an actor may put on a team's API key (`tenancy.team_scopes`): `known`
 * is every valid scope (built-in team keys and those custom team roles added), `held` those the
 * actor holds in that team (all of `known` for org owners and admins and system admins).
 */
export const TeamScopesRequest = z.object({ actor: Actor, org_id: z.string().uuid(), team_id: z.string().uuid() });
export const TeamScopesReply = z.object({ known: z.array(z.string()), held: z.array(z.string()) });
export type TeamScopesReply = z.infer<typeof TeamScopesReply>;

/**
 * Identity checks an invite before registering its holder (`POST /auth/register {invite_token}`):
 * by the token's SHA-256, for the address being registered.
 */
export const CheckInviteRequest = z.object({ token_hash: z.string().regex(/^[0-9a-f]{64}$/), email: z.string().max(320) });
export const CheckInviteReply = z.object({
  /** null when the invite may be redeemed by this address; else not_found (unknown, expired, revoked) | already_accepted | email_mismatch */
  problem: z.enum(["not_found", "already_accepted", "email_mismatch"]).nullable(),
});
export type CheckInviteReply = z.infer<typeof CheckInviteReply>;
/**
 * Identity has tenancy redeem a registration's invite before answering `POST /auth/register`
 * (read your writes: the new member's next request sees the membership). The same redemption
 * also travels as the durable `invite.redeemed` event, so an RPC lost to an outage is replayed.
 */
export const RedeemInviteRequest = z.object({
  token_hash: z.string().regex(/^[0-9a-f]{64}$/),
  user_id: z.string().uuid(),
  email: z.string().max(320),
});
export type RedeemInviteRequest = z.infer<typeof RedeemInviteRequest>;
export const RedeemInviteReply = z.object({
  /** member: the membership is committed; refused: the invite can no longer be redeemed (the account stands) */
  outcome: z.enum(["member", "refused"]),
});
/**
 * Tenancy has identity refuse an org's or team's API keys before answering its deletion (read
 * your writes on every gateway): the keys are removed, the gateways' Redis entries say "no such
 * key" and every gateway drops its in-memory copies. `team_id` null: the whole org.
 */
export const RemoveTenantKeysRequest = z.object({ org_id: z.string().uuid(), team_id: z.string().uuid().nullable() });
export const RemoveTenantKeysReply = z.object({ removed: z.number().int() });
/**
 * Tenancy has identity mark an invited address verified before answering `POST
 * /invites/:token/accept` (read your writes: `GET /auth/me` right after shows it); the durable
 * `invite.accepted` event does the same if this request is lost.
 */
export const MarkInvitedEmailVerifiedRequest = z.object({ user_id: z.string().uuid(), email: z.string().max(320) });
export const MarkInvitedEmailVerifiedReply = z.object({});
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
/**
 * Tenancy has the inbox service deactivate the old org's inboxes on a transferred domain before it
 * answers the transfer; claimed under the `domain.transferred` event's id, which is then a no-op.
 */
export const DeactivateDomainInboxesRequest = z.object({
  event_id: z.string().uuid(),
  domain_id: z.string().uuid(),
  from_org_id: z.string().uuid(),
});
export const DeactivateDomainInboxesReply = z.object({});
/**
 * Tenancy has identity's mailer send invite links (the token travels only in this request and the
 * mail, never stored in clear). Identity queues the mails and answers at once.
 */
export const SendInviteMailRequest = z.object({
  mails: z
    .array(
      z.object({
        email: z.string().max(320),
        token: z.string().regex(/^[0-9a-f]{64}$/),
        org_name: z.string(),
        org_role: z.string(),
        inviter: z.string(),
        expires_at: z.string(),
      }),
    )
    .min(1)
    .max(50),
});
export const SendInviteMailReply = z.object({ queued: z.number().int() });

/** Request and reply schema of every request/reply subject, so both ends check the same shapes. */
export const rpcSchemas = {
  [RpcName.authorize]: { request: AuthorizeRequest, reply: AuthorizeReply },
  [RpcName.getAssignment]: { request: GetAssignmentRequest, reply: GetAssignmentReply },
  [RpcName.getInboxAccess]: { request: GetInboxAccessRequest, reply: GetInboxAccessReply },
  [RpcName.domainInboxCounts]: { request: DomainInboxCountsRequest, reply: DomainInboxCountsReply },
  [RpcName.demoConfig]: { request: DemoConfigRequest, reply: DemoConfigReply },
  [RpcName.teamNames]: { request: TeamNamesRequest, reply: TeamNamesReply },
  [RpcName.listActorTeams]: { request: ListActorTeamsRequest, reply: ListActorTeamsReply },
  [RpcName.resolveApiKey]: { request: ResolveApiKeyRequest, reply: ResolveApiKeyReply },
  [RpcName.sessionStatus]: { request: SessionStatusRequest, reply: SessionStatusReply },
  [RpcName.lookupUsers]: { request: LookupUsersRequest, reply: LookupUsersReply },
  [RpcName.verifyPassword]: { request: VerifyPasswordRequest, reply: VerifyPasswordReply },
  [RpcName.checkProvisioningTarget]: { request: CheckProvisioningTargetRequest, reply: CheckProvisioningTargetReply },
  [RpcName.provisionMembership]: { request: ProvisionMembershipRequest, reply: ProvisionMembershipReply },
  [RpcName.ssoEnforced]: { request: SsoEnforcedRequest, reply: SsoEnforcedReply },
  [RpcName.teamScopes]: { request: TeamScopesRequest, reply: TeamScopesReply },
  [RpcName.checkInvite]: { request: CheckInviteRequest, reply: CheckInviteReply },
  [RpcName.redeemInvite]: { request: RedeemInviteRequest, reply: RedeemInviteReply },
  [RpcName.removeTenantKeys]: { request: RemoveTenantKeysRequest, reply: RemoveTenantKeysReply },
  [RpcName.markInvitedEmailVerified]: { request: MarkInvitedEmailVerifiedRequest, reply: MarkInvitedEmailVerifiedReply },
  [RpcName.moveTeamApiKeys]: { request: MoveTeamRequest, reply: MoveTeamReply },
  [RpcName.moveTeamInboxes]: { request: MoveTeamRequest, reply: MoveTeamReply },
  [RpcName.moveTeamWebhooks]: { request: MoveTeamRequest, reply: MoveTeamReply },
  [RpcName.deactivateDomainInboxes]: { request: DeactivateDomainInboxesRequest, reply: DeactivateDomainInboxesReply },
  [RpcName.sendInviteMail]: { request: SendInviteMailRequest, reply: SendInviteMailReply },
  [RpcName.adminStats]: { request: AdminStatsRequest, reply: AdminStatsReply },
  [RpcName.countUsers]: { request: CountUsersRequest, reply: CountUsersReply },
  [RpcName.mailerConfig]: { request: PlatformConfigRequest, reply: MailerConfigReply },
  [RpcName.storageConfig]: { request: PlatformConfigRequest, reply: StorageConfigReply },
  [RpcName.platformSettings]: { request: PlatformConfigRequest, reply: PlatformSettingsReply },
  [RpcName.setupState]: { request: SetupStateRequest, reply: SetupStateReply },
  [RpcName.setupCreateAdmin]: { request: SetupCreateAdminRequest, reply: SetupCreateAdminReply },
  [RpcName.setupAbort]: { request: SetupAbortRequest, reply: SetupAbortReply },
} as const;
export type RpcSchemas = typeof rpcSchemas;
