import type { Invite, InviteStatus, InviteTeamAssignment } from "@burnbox/contracts";
import type { OrgScope } from "@burnbox/service-kit/data";
import type { Prisma } from "../generated/prisma";
import { iso, type Client } from "./prisma";

type InviteRow = Prisma.InviteGetPayload<object>;

/** An invite row as the use cases read it (the token hash stays in the repository). */
export interface StoredInvite {
  id: string;
  orgId: string;
  email: string;
  orgRole: string;
  teamAssignments: InviteTeamAssignment[];
  invitedBy: string;
  /** pending | accepted | revoked; a pending one past `expiresAt` is expired. */
  status: "pending" | "accepted" | "revoked";
  expiresAt: Date;
  acceptedAt: Date | null;
  acceptedBy: string | null;
  createdAt: Date;
}

export interface NewInvite {
  id: string;
  email: string;
  orgRole: string;
  teamAssignments: InviteTeamAssignment[];
  tokenHash: string;
  invitedBy: string;
  expiresAt: Date;
}

const text = (v: Prisma.JsonValue | undefined): string => (typeof v === "string" ? v : "");
const assignmentsOf = (v: Prisma.JsonValue): InviteTeamAssignment[] =>
  Array.isArray(v)
    ? v.flatMap((a) =>
        a && typeof a === "object" && !Array.isArray(a) && typeof a.team_id === "string"
          ? [{ team_id: a.team_id, team_role: text(a.team_role), team_name: text(a.team_name) }]
          : [],
      )
    : [];

function toStored(r: InviteRow): StoredInvite {
  return {
    id: r.id,
    orgId: r.orgId,
    email: r.email,
    orgRole: r.orgRole,
    teamAssignments: assignmentsOf(r.teamAssignments),
    invitedBy: r.invitedBy,
    // the column only ever holds these values: this repository is its one writer
    status: r.status as StoredInvite["status"],
    expiresAt: r.expiresAt,
    acceptedAt: r.acceptedAt,
    acceptedBy: r.acceptedBy,
    createdAt: r.createdAt,
  };
}

/** The status a client sees: a pending invite past its expiry is expired. */
export const statusAt = (i: StoredInvite, now: Date): InviteStatus =>
  i.status === "pending" && i.expiresAt.getTime() <= now.getTime() ? "expired" : i.status;

export const toInvite = (i: StoredInvite, now: Date): Invite => ({
  id: i.id,
  org_id: i.orgId,
  email: i.email,
  org_role: i.orgRole,
  team_assignments: i.teamAssignments,
  invited_by: i.invitedBy,
  status: statusAt(i, now),
  expires_at: i.expiresAt.toISOString(),
  accepted_at: iso(i.acceptedAt),
  created_at: i.createdAt.toISOString(),
});

const whereStatus = (scope: OrgScope, status: InviteStatus, now: Date): Prisma.InviteWhereInput => {
  switch (status) {
    case "pending":
      return { orgId: scope.orgId, status: "pending", expiresAt: { gt: now } };
    case "expired":
      return { orgId: scope.orgId, status: "pending", expiresAt: { lte: now } };
    case "accepted":
    case "revoked":
      return { orgId: scope.orgId, status };
  }
};

/** An org's invites; the token is only ever looked up by its SHA-256. */
export class InviteRepository {
  constructor(private readonly db: Client) {}

  /**
   * Serializes invites to one address of one org until the transaction ends, so two concurrent
   * invites cannot both leave a pending invite behind.
   */
  async lockAddress(scope: OrgScope, email: string): Promise<void> {
    await this.db.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`invite:${scope.orgId}:${email}`}))`;
  }

  async create(scope: OrgScope, fields: NewInvite): Promise<StoredInvite> {
    const row = await this.db.invite.create({
      data: { ...fields, orgId: scope.orgId, teamAssignments: fields.teamAssignments, status: "pending" },
    });
    return toStored(row);
  }

  /** The unexpired pending invites of the org to these addresses. */
  async pendingFor(scope: OrgScope, emails: string[], now: Date): Promise<StoredInvite[]> {
    const rows = await this.db.invite.findMany({ where: { ...whereStatus(scope, "pending", now), email: { in: emails } } });
    return rows.map(toStored);
  }

  /** Revokes every pending invite of the org to `email` (a new invite replaces them); returns how many. */
  async revokePendingFor(scope: OrgScope, email: string, now: Date): Promise<number> {
    const res = await this.db.invite.updateMany({
      where: { orgId: scope.orgId, email, status: "pending" },
      data: { status: "revoked", revokedAt: now },
    });
    return res.count;
  }

  async get(scope: OrgScope, inviteId: string): Promise<StoredInvite | null> {
    const row = await this.db.invite.findFirst({ where: { id: inviteId, orgId: scope.orgId } });
    return row ? toStored(row) : null;
  }

  /** The one write that revokes: only a pending invite, so a concurrent accept wins or loses cleanly. */
  async revoke(scope: OrgScope, inviteId: string, now: Date): Promise<boolean> {
    const res = await this.db.invite.updateMany({
      where: { id: inviteId, orgId: scope.orgId, status: "pending" },
      data: { status: "revoked", revokedAt: now },
    });
    return res.count === 1;
  }

  /** One window of the org's invites of a status, newest first. */
  async list(scope: OrgScope, status: InviteStatus, now: Date, window: { skip: number; take: number }): Promise<StoredInvite[]> {
    const rows = await this.db.invite.findMany({
      where: whereStatus(scope, status, now),
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      ...window,
    });
    return rows.map(toStored);
  }

  count(scope: OrgScope, status: InviteStatus, now: Date): Promise<number> {
    return this.db.invite.count({ where: whereStatus(scope, status, now) });
  }

  /**
   * An invite known only by its token's hash (the link names no org), locked until the
   * transaction ends when `forUpdate` (accepting), or null.
   */
  async locateByTokenHash(tokenHash: string, opts: { forUpdate?: boolean } = {}): Promise<StoredInvite | null> {
    if (opts.forUpdate) {
      const ids = await this.db.$queryRaw<Array<{ id: string }>>`SELECT id FROM invites WHERE token_hash = ${tokenHash} FOR UPDATE`;
      if (ids.length === 0) return null;
    }
    const row = await this.db.invite.findUnique({ where: { tokenHash } });
    return row ? toStored(row) : null;
  }

  /** Marks a pending invite accepted by `userId`; false when it was no longer pending. */
  async markAccepted(inviteId: string, userId: string, now: Date): Promise<boolean> {
    const res = await this.db.invite.updateMany({
      where: { id: inviteId, status: "pending" },
      data: { status: "accepted", acceptedAt: now, acceptedBy: userId },
    });
    return res.count === 1;
  }
}
