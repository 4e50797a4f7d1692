-- Mail out (extensions section 10): the durable outbound queue. A row is written in the request's
-- transaction, with its audit entry; the outbound worker claims and delivers it.

CREATE TABLE "outbound_messages" (
    "id" UUID NOT NULL,
    "org_id" UUID NOT NULL,
    "team_id" UUID NOT NULL,
    "inbox_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "message_id" TEXT NOT NULL,
    "mail_from" TEXT NOT NULL,
    "recipients" TEXT[] NOT NULL,
    "delivered" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "subject" TEXT NOT NULL,
    "raw" BYTEA NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'queued',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_reply" TEXT,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL,
    "lease_until" TIMESTAMPTZ(3),
    "claim_token" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "outbound_messages_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "outbound_messages_inbox_id_created_at_idx" ON "outbound_messages"("inbox_id", "created_at" DESC);
CREATE INDEX "outbound_messages_team_id_created_at_idx" ON "outbound_messages"("team_id", "created_at");
CREATE INDEX "outbound_messages_state_next_attempt_at_idx" ON "outbound_messages"("state", "next_attempt_at");

ALTER TABLE "outbound_messages" ADD CONSTRAINT "outbound_messages_inbox_id_fkey" FOREIGN KEY ("inbox_id") REFERENCES "inboxes"("id") ON DELETE CASCADE ON UPDATE CASCADE;
