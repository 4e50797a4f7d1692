import type { SsoIdentity } from "@burnbox/contracts";
import { errors } from "@burnbox/service-kit/runtime";
import type { Prisma } from "../generated/prisma";
import { isUniqueViolation, type Client } from "./prisma";

type Row = Prisma.SsoIdentityGetPayload<{ include: { provider: { select: { name: true } } } }>;

const toIdentity = (r: Row): SsoIdentity => ({
  id: r.id,
  provider: r.provider.name,
  subject: r.subject,
  email: r.email,
  linked_at: r.linkedAt.toISOString(),
  last_used_at: r.lastUsedAt.toISOString(),
});

const withName = { provider: { select: { name: true } } } as const;

/** A user's accounts at SSO providers; every method but the sign-in lookup takes the user. */
export class SsoIdentityRepository {
  constructor(private readonly db: Client) {}

  /** Sign-in: whose account a provider's subject is. */
  async userOf(providerId: string, subject: string): Promise<string | null> {
    const row = await this.db.ssoIdentity.findUnique({ where: { providerId_subject: { providerId, subject } }, select: { userId: true } });
    return row?.userId ?? null;
  }

  async link(userId: string, fields: { id: string; providerId: string; subject: string; email: string; at: Date }): Promise<void> {
    try {
      await this.db.ssoIdentity.create({
        data: {
          id: fields.id,
          userId,
          providerId: fields.providerId,
          subject: fields.subject,
          email: fields.email,
          linkedAt: fields.at,
          lastUsedAt: fields.at,
        },
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw errors.conflict("this provider account is already linked");
      throw err;
    }
  }

  async touch(userId: string, providerId: string, email: string, at: Date): Promise<void> {
    await this.db.ssoIdentity.updateMany({ where: { userId, providerId }, data: { lastUsedAt: at, email } });
  }

  async list(userId: string, window: { skip: number; take: number }): Promise<SsoIdentity[]> {
    const rows = await this.db.ssoIdentity.findMany({
      where: { userId },
      include: withName,
      orderBy: [{ linkedAt: "asc" }, { id: "asc" }],
      ...window,
    });
    return rows.map(toIdentity);
  }

  count(userId: string): Promise<number> {
    return this.db.ssoIdentity.count({ where: { userId } });
  }

  async unlink(userId: string, providerId: string): Promise<SsoIdentity | null> {
    const row = await this.db.ssoIdentity.findUnique({ where: { userId_providerId: { userId, providerId } }, include: withName });
    if (!row) return null;
    await this.db.ssoIdentity.delete({ where: { id: row.id } });
    return toIdentity(row);
  }
}
