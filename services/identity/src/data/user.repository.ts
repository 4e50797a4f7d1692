import { ChangeSubject, type ApiKeyStateChange, type User } from "@burnbox/contracts";
import type { ChangeLog } from "@burnbox/service-kit/messaging";
import { errors } from "@burnbox/service-kit/runtime";
import type { Prisma } from "../generated/prisma";
import { isUniqueViolation, type Client } from "./prisma";

type UserRow = Prisma.UserGetPayload<object>;

export function toUser(u: UserRow): User {
  return {
    id: u.id,
    email: u.email,
    display_name: u.displayName,
    is_system_admin: u.isSystemAdmin,
    email_verified: u.emailVerified,
    sso_provider: u.ssoProvider,
    timezone: u.timezone,
    date_format: u.dateFormat,
    time_format: u.timeFormat,
    max_sessions: u.maxSessions,
    created_at: u.createdAt.toISOString(),
    updated_at: u.updatedAt.toISOString(),
    last_login_at: u.lastLoginAt?.toISOString() ?? null,
  };
}

/** What a password sign-in needs to decide: found by email, before anyone is authenticated. */
export interface LoginCandidate {
  userId: string;
  passwordHash: string | null;
  lockedUntil: Date | null;
}

export interface NewUser {
  id: string;
  email: string;
  displayName: string;
  passwordHash: string | null;
  isSystemAdmin: boolean;
  lastLoginAt: Date;
  emailVerified?: boolean;
  ssoProvider?: string | null;
}

/** The fields a profile edit, an admin edit or an auth migration may change. */
export interface UserChanges {
  displayName?: string;
  timezone?: string;
  dateFormat?: string;
  timeFormat?: string;
  isSystemAdmin?: boolean;
  emailVerified?: boolean;
  maxSessions?: number | null;
  ssoProvider?: string | null;
  passwordHash?: string | null;
}

/**
 * Accounts. In identity the "tenant" of account data is the user: every method takes the user id
 * it acts on; the only lookup without one is `locateByEmail` (sign-in, reset requests).
 */
export class UserRepository {
  /** `changes`: inside `write()`, where the keys that go with a deleted account are recorded (their state changed). */
  constructor(
    private readonly db: Client,
    private readonly changes?: ChangeLog,
  ) {}

  async get(userId: string): Promise<User | null> {
    const row = await this.db.user.findUnique({ where: { id: userId } });
    return row ? toUser(row) : null;
  }

  async passwordHash(userId: string): Promise<{ passwordHash: string | null } | null> {
    return this.db.user.findUnique({ where: { id: userId }, select: { passwordHash: true } });
  }

  async locateByEmail(email: string): Promise<(LoginCandidate & { email: string }) | null> {
    const row = await this.db.user.findUnique({
      where: { email },
      select: { id: true, email: true, passwordHash: true, lockedUntil: true },
    });
    return row ? { userId: row.id, email: row.email, passwordHash: row.passwordHash, lockedUntil: row.lockedUntil } : null;
  }

  /** A taken email is the same generic 400 as any other refusal: registration must not reveal who has an account. */
  async create(fields: NewUser): Promise<User> {
    try {
      return toUser(await this.db.user.create({ data: fields }));
    } catch (err) {
      if (isUniqueViolation(err)) throw errors.validation("registration failed: check the details and try again");
      throw err;
    }
  }

  async update(userId: string, changes: UserChanges): Promise<User> {
    return toUser(await this.db.user.update({ where: { id: userId }, data: changes }));
  }

  /** A successful sign-in: the failure count and any lockout are cleared. */
  async recordLogin(userId: string, at: Date): Promise<User> {
    return toUser(await this.db.user.update({ where: { id: userId }, data: { failedLoginCount: 0, lockedUntil: null, lastLoginAt: at } }));
  }

  /** Returns the number of failures in a row, this one included. */
  async recordFailedLogin(userId: string): Promise<number> {
    const row = await this.db.user.update({
      where: { id: userId },
      data: { failedLoginCount: { increment: 1 } },
      select: { failedLoginCount: true },
    });
    return row.failedLoginCount;
  }

  async lock(userId: string, until: Date): Promise<void> {
    await this.db.user.update({ where: { id: userId }, data: { lockedUntil: until, failedLoginCount: 0 } });
  }

  /** A password set through the reset flow also lifts a lockout. */
  async resetPassword(userId: string, passwordHash: string): Promise<void> {
    await this.db.user.update({ where: { id: userId }, data: { passwordHash, failedLoginCount: 0, lockedUntil: null } });
  }

  /** The user's own session cap, or null when the platform default applies. */
  async sessionCap(userId: string): Promise<number | null> {
    const row = await this.db.user.findUniqueOrThrow({ where: { id: userId }, select: { maxSessions: true } });
    return row.maxSessions;
  }

  /** Deletes the account; the API keys it created go with it (cascade), recorded as changed. */
  async delete(userId: string): Promise<void> {
    const keys = await this.db.apiKey.findMany({ where: { createdBy: userId }, select: { keyHash: true } });
    await this.db.user.delete({ where: { id: userId } });
    for (const k of keys) {
      const data: ApiKeyStateChange = { hash: k.keyHash };
      this.changes?.record({ type: ChangeSubject.apiKeyState, org_id: null, team_id: null, data });
    }
  }

  /** Every user, oldest first: the platform-wide list of system admins; `q` keeps those whose email or name holds it. */
  async list(window: { skip: number; take: number }, q?: string): Promise<User[]> {
    return (await this.db.user.findMany({ where: userSearch(q), orderBy: [{ createdAt: "asc" }, { id: "asc" }], ...window })).map(toUser);
  }

  count(q?: string): Promise<number> {
    return this.db.user.count({ where: userSearch(q) });
  }
}

/** Case-insensitive substring of the email or the display name; nothing when `q` is empty. */
function userSearch(q: string | undefined) {
  const term = q?.trim();
  if (!term) return {};
  return {
    OR: [{ email: { contains: term, mode: "insensitive" as const } }, { displayName: { contains: term, mode: "insensitive" as const } }],
  };
}
