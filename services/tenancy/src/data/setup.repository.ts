import type { Client } from "./prisma";

const ROW = 1;

/** First-run setup's one row: the generated token's hash and tenancy's completion. Not tenant data. */
export class SetupRepository {
  constructor(private readonly db: Client) {}

  async completed(): Promise<boolean> {
    const row = await this.db.setupState.findUnique({ where: { id: ROW }, select: { completedAt: true } });
    return row?.completedAt != null;
  }

  /**
   * The generated setup token's hash: `candidateHash` is stored when none is (the first replica to
   * start wins); answers the stored one and whether it is the candidate (then this replica logs it).
   */
  async claimTokenHash(candidateHash: string): Promise<{ hash: string; mine: boolean }> {
    await this.ensureRow();
    await this.db.setupState.updateMany({ where: { id: ROW, tokenHash: null }, data: { tokenHash: candidateHash } });
    const row = await this.db.setupState.findUniqueOrThrow({ where: { id: ROW }, select: { tokenHash: true } });
    return { hash: row.tokenHash ?? candidateHash, mine: row.tokenHash === candidateHash };
  }

  /** The one row, created by whichever replica comes first (replicas starting together do not collide). */
  private async ensureRow(): Promise<void> {
    await this.db.$executeRaw`INSERT INTO setup_state (id) VALUES (${ROW}) ON CONFLICT (id) DO NOTHING`;
  }

  /** Marks setup complete; false when it already was (another completion won). */
  async markCompleted(fields: { adminUserId: string; orgId: string; at: Date }): Promise<boolean> {
    await this.ensureRow();
    const { count } = await this.db.setupState.updateMany({
      where: { id: ROW, completedAt: null },
      data: { completedAt: fields.at, adminUserId: fields.adminUserId, orgId: fields.orgId },
    });
    return count === 1;
  }
}
