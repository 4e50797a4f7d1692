import type { Infra } from "@burnbox/service-kit/runtime";

type Pool = NonNullable<Infra["pool"]>;
import type { TeamScope } from "@burnbox/service-kit/data";
import type { MailboxMessage } from "../mailbox/backend";
import type { InboxAccess } from "./inbox.repository";

/** What the IMAP and POP3 entrypoint reads: the inbox of an address and its emails with their UIDs. */
export class MailboxRepository {
  constructor(private readonly pool: Pool) {}

  /** The inbox of a full address (case-insensitive), with what UIDVALIDITY is made of. */
  async inboxByAddress(fullAddress: string): Promise<(InboxAccess & { full_address: string; created_at: Date; expires_at: Date }) | null> {
    const { rows } = await this.pool.query<{
      id: string;
      org_id: string;
      team_id: string;
      domain_assignment_id: string;
      created_by: string;
      private: boolean;
      is_active: boolean;
      full_address: string;
      created_at: Date;
      expires_at: Date;
    }>(
      `SELECT id::text, org_id::text, team_id::text, domain_assignment_id::text, created_by::text, private, is_active,
         full_address, created_at, expires_at
       FROM inboxes WHERE full_address = lower($1)`,
      [fullAddress.trim()],
    );
    return rows[0] ?? null;
  }

  /**
   * The inbox's emails in UID order. Rows received before UIDs existed get theirs first (after
   * every UID already given in the inbox, in the order they were received).
   */
  async messages(scope: TeamScope, inboxId: string): Promise<MailboxMessage[]> {
    const select = () =>
      this.pool.query<{ id: string; uid: string | null; size_bytes: number; received_at: Date; is_read: boolean }>(
        `SELECT e.id::text, e.uid::text, e.size_bytes, e.received_at, e.is_read
         FROM emails e JOIN inboxes i ON i.id = e.inbox_id
         WHERE e.inbox_id = $1::uuid AND i.org_id = $2::uuid AND i.team_id = $3::uuid AND e.raw_key IS NOT NULL
         ORDER BY e.uid NULLS LAST, e.received_at, e.id`,
        [inboxId, scope.orgId, scope.teamId],
      );
    let { rows } = await select();
    if (rows.some((r) => r.uid === null)) {
      await this.pool.query(
        `UPDATE emails SET uid = nextval('emails_uid_seq')
         WHERE id IN (SELECT id FROM emails WHERE inbox_id = $1::uuid AND uid IS NULL ORDER BY received_at, id FOR UPDATE)`,
        [inboxId],
      );
      ({ rows } = await select());
    }
    return rows.map((r) => ({ id: r.id, uid: Number(r.uid), size: r.size_bytes, receivedAt: r.received_at, seen: r.is_read }));
  }
}
