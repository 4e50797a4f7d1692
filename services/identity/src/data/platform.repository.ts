import type { Client } from "./prisma";

const MAX_SESSIONS_PER_USER = "max_sessions_per_user";

/** Platform-wide settings (PUT /admin/platform); not tenant data. */
export class PlatformRepository {
  constructor(private readonly db: Client) {}

  /** The platform's session cap, or null when the configured default applies. */
  async maxSessionsPerUser(): Promise<number | null> {
    const row = await this.db.platformSetting.findUnique({ where: { key: MAX_SESSIONS_PER_USER } });
    return typeof row?.value === "number" ? row.value : null;
  }

  async setMaxSessionsPerUser(value: number): Promise<void> {
    await this.db.platformSetting.upsert({
      where: { key: MAX_SESSIONS_PER_USER },
      create: { key: MAX_SESSIONS_PER_USER, value },
      update: { value },
    });
  }
}
