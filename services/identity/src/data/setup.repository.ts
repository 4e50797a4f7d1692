import type { Client } from "./prisma";

/**
 * First-run setup's bookkeeping: whether any system admin exists, and which admin setup created.
 * `lock()` serialises setups (a transaction-scoped advisory lock), so two concurrent completions
 * cannot both find "no admin yet".
 */
export class SetupRepository {
  constructor(private readonly db: Client) {}

  async lock(): Promise<void> {
    await this.db.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('burnbox.setup'))`;
  }

  async adminExists(): Promise<boolean> {
    return (await this.db.user.findFirst({ where: { isSystemAdmin: true }, select: { id: true } })) !== null;
  }

  /** The setup-created admin that still exists (and is still an admin), if any. */
  async setupAdminId(): Promise<string | null> {
    const rows = await this.db.setupAdmin.findMany({ select: { userId: true } });
    for (const r of rows) {
      const user = await this.db.user.findUnique({ where: { id: r.userId }, select: { isSystemAdmin: true } });
      if (user?.isSystemAdmin) return r.userId;
    }
    return null;
  }

  async recordSetupAdmin(userId: string): Promise<void> {
    await this.db.setupAdmin.create({ data: { userId } });
  }

  async isSetupAdmin(userId: string): Promise<boolean> {
    return (await this.db.setupAdmin.findUnique({ where: { userId } })) !== null;
  }

  async forgetSetupAdmin(userId: string): Promise<void> {
    await this.db.setupAdmin.deleteMany({ where: { userId } });
  }
}
