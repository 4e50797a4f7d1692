import {
  ORG_PERMISSIONS,
  ORG_ROLE_GRANTS,
  TEAM_PERMISSIONS,
  TEAM_ROLE_GRANTS,
  type PermissionInfo,
  type Role,
  type RoleScope,
} from "@burnbox/contracts";
import { ORG_RANK, TEAM_RANK } from "../access/rank";

/** The system roles, with fixed ids so clients may keep them. */
export const SYSTEM_ROLES: readonly Role[] = [
  {
    id: "00000000-0000-4000-8000-000000000030",
    scope: "org",
    value: "owner",
    label: "Owner",
    description: "Everything, including deleting the organization",
    rank: ORG_RANK.owner,
    is_system: true,
    permissions: [...ORG_ROLE_GRANTS.owner],
  },
  {
    id: "00000000-0000-4000-8000-000000000020",
    scope: "org",
    value: "admin",
    label: "Admin",
    description: "Everything but deleting the organization",
    rank: ORG_RANK.admin,
    is_system: true,
    permissions: [...ORG_ROLE_GRANTS.admin],
  },
  {
    id: "00000000-0000-4000-8000-000000000010",
    scope: "org",
    value: "member",
    label: "Member",
    description: "Sees the organization",
    rank: ORG_RANK.member,
    is_system: true,
    permissions: [...ORG_ROLE_GRANTS.member],
  },
  {
    id: "00000000-0000-4000-8000-000000000120",
    scope: "team",
    value: "lead",
    label: "Lead",
    description: "Everything in the team",
    rank: TEAM_RANK.lead,
    is_system: true,
    permissions: [...TEAM_ROLE_GRANTS.lead],
  },
  {
    id: "00000000-0000-4000-8000-000000000110",
    scope: "team",
    value: "member",
    label: "Member",
    description: "Sees the team and uses its inboxes",
    rank: TEAM_RANK.member,
    is_system: true,
    permissions: [...TEAM_ROLE_GRANTS.member],
  },
];

/** The rank of the top system role of a scope: a custom role ranks below it. */
export const TOP_RANK: Record<RoleScope, number> = { org: ORG_RANK.owner, team: TEAM_RANK.lead };

const describe = (key: string, scope: RoleScope): PermissionInfo => ({
  key,
  scope,
  label: key.split(".").slice(1).join(" "),
  description: `Permission ${key}`,
});

/** Every permission key: the built-in ones, and the team keys custom roles added. */
export function permissionsOf(custom: readonly Role[]): { org: PermissionInfo[]; team: PermissionInfo[] } {
  const teamKeys = new Set<string>(TEAM_PERMISSIONS);
  for (const r of custom) if (r.scope === "team") for (const p of r.permissions) teamKeys.add(p);
  return { org: ORG_PERMISSIONS.map((k) => describe(k, "org")), team: [...teamKeys].map((k) => describe(k, "team")) };
}

/** A role by scope and value, system or custom: its rank and permissions, or null when unknown. */
export function findRole(scope: RoleScope, value: string, custom: readonly Role[]): Role | null {
  return (
    SYSTEM_ROLES.find((r) => r.scope === scope && r.value === value) ?? custom.find((r) => r.scope === scope && r.value === value) ?? null
  );
}
