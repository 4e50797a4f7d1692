import { z } from "./zod";

/** Team permission keys: spec 2.2 plus team.emails.manage (contract notes) and team.emails.send (extensions 10). */
export const TEAM_PERMISSIONS = [
  "team.view",
  "team.settings.manage",
  "team.members.view",
  "team.members.manage",
  "team.members.role",
  "team.domains.view",
  "team.domains.manage",
  "team.webhooks.view",
  "team.webhooks.manage",
  "team.apikeys.view",
  "team.apikeys.manage",
  "team.inboxes.view",
  "team.inboxes.create",
  "team.inboxes.manage",
  "team.emails.view",
  "team.emails.manage",
  "team.analytics.view",
  // extensions section 12: a team's mail snapshots (reading them takes team.emails.view)
  "team.snapshots.manage",
  // extensions 10: release, reply and send; team leads only by default (like team.webhooks.manage, the other
  // permission that sends a team's data out of BurnBox); a custom role may grant it to others
  "team.emails.send",
] as const;
export type TeamPermission = (typeof TEAM_PERMISSIONS)[number];

/**
 * The permissions on inboxes and their mail that a `create_inbox` domain assignment narrows to
 * the inboxes the actor created ("create; read own", contract notes), for all but org owners and
 * admins (and system admins): tenancy names those assignments in its decision (`own_only_assignments`).
 */
export const OWN_INBOX_PERMISSIONS: readonly TeamPermission[] = [
  "team.inboxes.view",
  "team.inboxes.manage",
  "team.emails.view",
  "team.emails.manage",
];

export const ORG_PERMISSIONS = [
  "org.view",
  "org.delete",
  "org.settings.view",
  "org.settings.manage",
  "org.members.view",
  "org.members.invite",
  "org.members.add",
  "org.members.remove",
  "org.members.role",
  "org.domains.view",
  "org.domains.manage",
  "org.teams.create",
  "org.teams.delete",
  "org.teams.manage",
  "org.audit.view",
  "org.audit.export",
  "org.analytics.view",
] as const;
export type OrgPermission = (typeof ORG_PERMISSIONS)[number];
export type Permission = TeamPermission | OrgPermission;

export const ORG_ROLES = ["owner", "admin", "member"] as const;
export type OrgRole = (typeof ORG_ROLES)[number];
export const TEAM_ROLES = ["lead", "member"] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

/** Higher rank may act on lower. */
export const ORG_ROLE_RANK: Record<OrgRole, number> = { owner: 300, admin: 200, member: 100 };
export const TEAM_ROLE_RANK: Record<TeamRole, number> = { lead: 200, member: 100 };

const isView = (p: string) => p.endsWith(".view");

export const ORG_ROLE_GRANTS: Record<OrgRole, readonly OrgPermission[]> = {
  owner: ORG_PERMISSIONS,
  admin: ORG_PERMISSIONS.filter((p) => p !== "org.delete"),
  // contract notes: members see the org, its settings, members and domains, and analytics; not the audit log
  member: ["org.view", "org.settings.view", "org.members.view", "org.domains.view", "org.analytics.view"],
};

export const TEAM_ROLE_GRANTS: Record<TeamRole, readonly TeamPermission[]> = {
  lead: TEAM_PERMISSIONS,
  member: TEAM_PERMISSIONS.filter(
    (p) => isView(p) || p === "team.inboxes.create" || p === "team.inboxes.manage" || p === "team.emails.manage",
  ),
};

export function isTeamPermission(p: string): p is TeamPermission {
  return (TEAM_PERMISSIONS as readonly string[]).includes(p);
}
export function isOrgPermission(p: string): p is OrgPermission {
  return (ORG_PERMISSIONS as readonly string[]).includes(p);
}

export const PermissionSchema = z.string().refine((p) => isTeamPermission(p) || isOrgPermission(p), "unknown permission");
