import type { Domain, DomainAssignment, Org, Team } from "@burnbox/contracts";
import type { Prisma } from "./prisma";

export const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);
const obj = (v: Prisma.JsonValue): Record<string, unknown> => (v && typeof v === "object" && !Array.isArray(v) ? v : {});

export const DEFAULT_ORG_SETTINGS = {
  attachments_enabled: true,
  default_inbox_ttl: "10m",
  max_inbox_ttl: "24h",
  max_attachment_size_mb: 25,
  max_domains: 10,
  max_teams: 20,
  max_inboxes_per_domain: 1000,
  enforce_sso: false,
};

type OrgRow = Prisma.OrgGetPayload<object>;
type TeamRow = Prisma.TeamGetPayload<object> & { _count?: { members: number; assignments: number } };
type DomainRow = Prisma.DomainGetPayload<object> & { _count?: { assignments: number } };
type AssignmentRow = Prisma.DomainAssignmentGetPayload<{ include: { domain: true } }>;

export function orgView(o: OrgRow): Org {
  return {
    id: o.id,
    name: o.name,
    slug: o.slug,
    logo_url: o.logoUrl,
    settings: { ...DEFAULT_ORG_SETTINGS, ...obj(o.settings) },
    created_at: o.createdAt.toISOString(),
    updated_at: o.updatedAt.toISOString(),
  };
}

export function teamView(t: TeamRow): Team {
  const settings = obj(t.settings);
  return {
    id: t.id,
    org_id: t.orgId,
    name: t.name,
    slug: t.slug,
    description: t.description,
    is_archived: t.isArchived,
    archived_at: iso(t.archivedAt),
    settings,
    member_count: t._count?.members ?? 0,
    domain_count: t._count?.assignments ?? 0,
    active_inboxes: t.activeInboxes,
    created_at: t.createdAt.toISOString(),
    updated_at: t.updatedAt.toISOString(),
  };
}

export function domainView(d: DomainRow): Domain {
  return {
    id: d.id,
    org_id: d.orgId,
    domain_name: d.domainName,
    description: d.description,
    status: d.status as Domain["status"],
    mx_verified: d.mxVerified,
    txt_verified: d.txtVerified,
    spf_verified: d.spfVerified,
    verification_record: d.verificationRecord,
    dns_last_checked_at: iso(d.dnsLastCheckedAt),
    settings: obj(d.settings),
    active_inboxes: d.activeInboxes,
    total_inboxes: d.totalInboxes,
    team_count: d._count?.assignments ?? 0,
    created_at: d.createdAt.toISOString(),
    updated_at: d.updatedAt.toISOString(),
  };
}

export function assignmentView(a: AssignmentRow): DomainAssignment {
  return {
    id: a.id,
    team_id: a.teamId,
    domain_id: a.domainId,
    domain_name: a.domain.domainName,
    access_level: a.accessLevel as DomainAssignment["access_level"],
    settings: obj(a.settings),
    created_at: a.createdAt.toISOString(),
    updated_at: a.updatedAt.toISOString(),
  };
}

export { obj as jsonObject };
