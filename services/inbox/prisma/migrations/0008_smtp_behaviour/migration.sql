-- SMTP behaviour per inbox, transcripts and the inbox's SMTP log (extensions section 8).

-- How the intake misbehaves for an inbox: null (normal), or the set fields only.
ALTER TABLE "inboxes" ADD COLUMN "smtp_behaviour" JSONB;

-- The SMTP conversation that delivered an email, written with it; mail stored before has none.
CREATE TABLE "email_transcripts" (
    "email_id" UUID NOT NULL,
    "transcript" JSONB NOT NULL,

    CONSTRAINT "email_transcripts_pkey" PRIMARY KEY ("email_id")
);

ALTER TABLE "email_transcripts" ADD CONSTRAINT "email_transcripts_email_id_fkey" FOREIGN KEY ("email_id") REFERENCES "emails"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The attempts an inbox's behaviour refused or deferred, newest first by (at, seq).
CREATE TABLE "smtp_attempts" (
    "id" UUID NOT NULL,
    "seq" BIGSERIAL NOT NULL,
    "inbox_id" UUID NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,
    "mail_from" TEXT NOT NULL,
    "rcpt_to" TEXT NOT NULL,
    "message_id" TEXT,
    "code" INTEGER NOT NULL,
    "reply" TEXT NOT NULL,
    "transcript" JSONB NOT NULL,

    CONSTRAINT "smtp_attempts_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "smtp_attempts_inbox_id_at_seq_idx" ON "smtp_attempts"("inbox_id", "at" DESC, "seq" DESC);

ALTER TABLE "smtp_attempts" ADD CONSTRAINT "smtp_attempts_inbox_id_fkey" FOREIGN KEY ("inbox_id") REFERENCES "inboxes"("id") ON DELETE CASCADE ON UPDATE CASCADE;
