import type { Client } from "./prisma";

/** The platform settings identity keeps (PUT /admin/platform), as stored: null = not set. */
export interface StoredPlatformSettings {
  max_sessions_per_user: number | null;
  allow_registration: boolean | null;
  demo_enabled: boolean | null;
  default_inbox_ttl: string | null;
  max_inbox_ttl: string | null;
}
export type PlatformKey = keyof StoredPlatformSettings;
const KEYS: readonly PlatformKey[] = ["max_sessions_per_user", "allow_registration", "demo_enabled", "default_inbox_ttl", "max_inbox_ttl"];

const MAX_SESSIONS_PER_USER = "max_sessions_per_user";

/** Platform-wide settings (PUT /admin/platform), one row per setting; not tenant data. */
export class PlatformRepository {
  constructor(private readonly db: Client) {}

  /** The platform's session cap, or null when the configured default applies. */
  async maxSessionsPerUser(): Promise<number | null> {
    const row = await this.db.platformSetting.findUnique({ where: { key: MAX_SESSIONS_PER_USER } });
    return typeof row?.value === "number" ? row.value : null;
  }

  async setMaxSessionsPerUser(value: number): Promise<void> {
    await this.set({ max_sessions_per_user: value });
  }

  /** Every setting; a missing or mistyped row reads as not set. */
  async all(): Promise<StoredPlatformSettings> {
    const rows = await this.db.platformSetting.findMany({ where: { key: { in: [...KEYS] } } });
    const v = new Map(rows.map((r) => [r.key, r.value]));
    const num = (k: PlatformKey) => (typeof v.get(k) === "number" ? (v.get(k) as number) : null);
    const bool = (k: PlatformKey) => (typeof v.get(k) === "boolean" ? (v.get(k) as boolean) : null);
    const str = (k: PlatformKey) => (typeof v.get(k) === "string" ? (v.get(k) as string) : null);
    return {
      max_sessions_per_user: num("max_sessions_per_user"),
      allow_registration: bool("allow_registration"),
      demo_enabled: bool("demo_enabled"),
      default_inbox_ttl: str("default_inbox_ttl"),
      max_inbox_ttl: str("max_inbox_ttl"),
    };
  }

  /** Writes the named settings; null removes one (its default applies again). */
  async set(values: Partial<StoredPlatformSettings>): Promise<void> {
    for (const key of KEYS) {
      const value = values[key];
      if (value === undefined) continue;
      if (value === null) await this.db.platformSetting.deleteMany({ where: { key } });
      else await this.db.platformSetting.upsert({ where: { key }, create: { key, value }, update: { value } });
    }
  }
}
