import {
  OWN_INBOX_PERMISSIONS,
  TEAM_ROLE_GRANTS,
  isTeamPermission,
  type Actor,
  type AuthorizeReply,
  type DomainAssignment,
  type OrgRole,
  type Permission,
  type TeamRole,
} from "@burnbox/contracts";

/** What the database says about the actor's place in one org (and optionally one team), with what their roles grant. */
export interface Standing {
  orgExists: boolean;
  orgRole: string | null;
  /** The permission keys of `orgRole` (a system or custom role). */
  orgGrants: readonly string[];
  /** null when no team was asked about. */
  team: { exists: boolean; role: string | null; grants: readonly string[]; archived?: boolean } | null;
}

/**
 * The team permissions that change a team: refused on an archived team (read-only) with the
 * distinct reason `team_archived`, which the kit answers as 409 `team is archived` in every
 * service (new inboxes, webhooks, API keys, members, assignments).
 */
export const WRITE_TEAM_PERMISSIONS: readonly string[] = [
  "team.settings.manage",
  "team.members.manage",
  "team.members.role",
  "team.domains.manage",
  "team.webhooks.manage",
  "team.apikeys.manage",
  "team.inboxes.create",
  "team.snapshots.manage",
];

/** Org roles that act on every team of their org (contract notes, Tenancy). */
export const TEAM_WIDE_ORG_ROLES: readonly OrgRole[] = ["owner", "admin"];

/** System administrators bypass every check, but never through an API key. */
export const isSystemAdmin = (actor: Actor): boolean => actor.is_system_admin && !actor.api_key;

/** Whether the actor sees and acts on every team of an org where they hold `orgRole`. */
export const actsOnEveryTeam = (actor: Actor, orgRole: string | null): boolean =>
  isSystemAdmin(actor) || (orgRole !== null && (TEAM_WIDE_ORG_ROLES as readonly string[]).includes(orgRole));

/** The access level of a domain assignment on which members see only the inboxes they created (contract notes). */
export const OWN_INBOXES_LEVEL: DomainAssignment["access_level"] = "create_inbox";

/**
 * Whether `OWN_INBOXES_LEVEL` assignments keep the actor to their own inboxes for `permission`:
 * for the permissions on inboxes and mail, unless the actor acts on every team of the org.
 */
export const ownInboxesOnly = (actor: Actor, orgRole: string | null, permission: Permission): boolean =>
  (OWN_INBOX_PERMISSIONS as readonly string[]).includes(permission) && !actsOnEveryTeam(actor, orgRole);

/** Team roles whose grants include `permission`. */
export const teamRolesGranting = (permission: string): TeamRole[] =>
  (Object.keys(TEAM_ROLE_GRANTS) as TeamRole[]).filter((r) => (TEAM_ROLE_GRANTS[r] as readonly string[]).includes(permission));

const allow: AuthorizeReply = { allowed: true, reason: null };
const deny = (reason: "org_not_found" | "team_not_found" | "not_member" | "missing_permission" | "team_archived"): AuthorizeReply => ({
  allowed: false,
  reason,
});

/**
 * The RBAC decision (contract notes, Tenancy). System admins bypass, never through an API key.
 * A key holds team permissions only, for its own team, and only those in its scopes; it then
 * acts with its creator's memberships. Org owners and admins act on every team of their org.
 */
export function decide(actor: Actor, permission: Permission, teamId: string | null, s: Standing): AuthorizeReply {
  const verdict = decideAccess(actor, permission, teamId, s);
  if (verdict.allowed && s.team?.archived && WRITE_TEAM_PERMISSIONS.includes(permission)) return deny("team_archived");
  return verdict;
}

function decideAccess(actor: Actor, permission: Permission, teamId: string | null, s: Standing): AuthorizeReply {
  const key = actor.api_key;
  if (isSystemAdmin(actor)) return s.orgExists ? allow : deny("org_not_found");
  if (!s.orgExists) return deny("org_not_found");
  if (key) {
    // a key sees its own team only: another team (of any org) is not even there for it, so it
    // answers exactly as an unknown id does (404), never 403 (which would confirm the id is real)
    if (teamId !== null && key.team_id !== teamId) return deny("not_member");
    if (!isTeamPermission(permission) || teamId === null) return deny("missing_permission");
    if (!key.scopes.includes(permission)) return deny("missing_permission");
  }
  if (isTeamPermission(permission)) {
    if (!s.team || !s.team.exists) return s.orgRole ? deny("team_not_found") : deny("org_not_found");
    if (actsOnEveryTeam(actor, s.orgRole)) return allow;
    if (!s.team.role) return deny("not_member");
    return s.team.grants.includes(permission) ? allow : deny("missing_permission");
  }
  if (!s.orgRole) return deny("not_member");
  return s.orgGrants.includes(permission) ? allow : deny("missing_permission");
}
