import type { PoolSql, TeamScope } from "@burnbox/service-kit/data";

/** An inbox written by a bulk import (bench/src/seed-mail.ts): the columns `POST /inboxes` would fill. */
export interface BulkInbox {
  id: string;
  domainId: string;
  domainAssignmentId: string;
  createdBy: string;
  address: string;
  domainName: string;
  createdAt: Date;
  expiresAt: Date;
}

/** An email written by a bulk import: the intake's columns, headers made from them, nothing extracted. */
export interface BulkEmail {
  id: string;
  inboxId: string;
  messageId: string;
  fromAddress: string;
  toAddress: string;
  subject: string;
  snippet: string;
  bodyText: string;
  bodyHtml: string | null;
  sizeBytes: number;
  isRead: boolean;
  hasAttachments: boolean;
  /** The raw message's key in the configured storage, or null when none was written. */
  rawKey: string | null;
  receivedAt: Date;
}

/**
 * The bulk write path of inboxes and their mail (one multi-row statement per batch, no events, no
 * outbox): for seeding a team with a year of mail at once, as the scale benchmark does. Writes only
 * into `scope`: an email whose inbox is not one of the team's is skipped (the count says how many were
 * written).
 */
export class BulkImportRepository {
  constructor(private readonly sql: PoolSql) {}

  async insertInboxes(scope: TeamScope, inboxes: readonly BulkInbox[]): Promise<number> {
    const rows = await this.sql<{ n: number }>`
      WITH w AS (
        INSERT INTO inboxes (id, org_id, team_id, domain_id, domain_assignment_id, created_by, address, domain_name,
          full_address, expires_at, ttl_ms, created_at)
        SELECT v.id, ${scope.orgId}::uuid, ${scope.teamId}::uuid, v.domain_id, v.assignment_id, v.created_by, v.address,
          v.domain_name, v.address || '@' || v.domain_name, v.expires_at,
          (extract(epoch FROM v.expires_at - v.created_at) * 1000)::bigint, v.created_at
        FROM unnest(${inboxes.map((i) => i.id)}::uuid[], ${inboxes.map((i) => i.domainId)}::uuid[],
          ${inboxes.map((i) => i.domainAssignmentId)}::uuid[], ${inboxes.map((i) => i.createdBy)}::uuid[],
          ${inboxes.map((i) => i.address)}::text[], ${inboxes.map((i) => i.domainName)}::text[],
          ${inboxes.map((i) => i.createdAt)}::timestamptz[], ${inboxes.map((i) => i.expiresAt)}::timestamptz[])
          AS v(id, domain_id, assignment_id, created_by, address, domain_name, created_at, expires_at)
        RETURNING 1
      )
      SELECT count(*)::int AS n FROM w`;
    return rows[0]?.n ?? 0;
  }

  async insertEmails(scope: TeamScope, emails: readonly BulkEmail[]): Promise<number> {
    const col = <T>(f: (e: BulkEmail) => T) => emails.map(f);
    const rows = await this.sql<{ n: number }>`
      WITH w AS (
        INSERT INTO emails (id, inbox_id, message_id, from_address, to_address, subject, snippet, body_text, body_html,
          headers, size_bytes, has_attachments, is_read, raw_key, received_at)
        SELECT v.id, v.inbox_id, v.message_id, v.from_address, v.to_address, v.subject, v.snippet, v.body_text, v.body_html,
          jsonb_build_object('From', v.from_address, 'To', v.to_address, 'Subject', v.subject, 'Message-ID', v.message_id),
          v.size_bytes, v.has_attachments, v.is_read, v.raw_key, v.received_at
        FROM unnest(${col((e) => e.id)}::uuid[], ${col((e) => e.inboxId)}::uuid[], ${col((e) => e.messageId)}::text[],
          ${col((e) => e.fromAddress)}::text[], ${col((e) => e.toAddress)}::text[], ${col((e) => e.subject)}::text[],
          ${col((e) => e.snippet)}::text[], ${col((e) => e.bodyText)}::text[], ${col((e) => e.bodyHtml)}::text[],
          ${col((e) => e.sizeBytes)}::int[], ${col((e) => e.hasAttachments)}::boolean[], ${col((e) => e.isRead)}::boolean[],
          ${col((e) => e.rawKey)}::text[], ${col((e) => e.receivedAt)}::timestamptz[])
          AS v(id, inbox_id, message_id, from_address, to_address, subject, snippet, body_text, body_html, size_bytes,
            has_attachments, is_read, raw_key, received_at)
        JOIN inboxes i ON i.id = v.inbox_id AND i.org_id = ${scope.orgId}::uuid AND i.team_id = ${scope.teamId}::uuid
        RETURNING 1
      )
      SELECT count(*)::int AS n FROM w`;
    return rows[0]?.n ?? 0;
  }
}
