-- The SMTP transcript in the email's own row (issue 39): the intake writes it in the one statement
-- that inserts the email. Nullable, no default: a catalog change only. Expand step of
-- docs/operations.md: this release still writes `email_transcripts` too, because the previous
-- release reads only that table (a rolling update, a rollback); the readers take the column and
-- fall back to the table for the mail stored before. The next release stops writing the table
-- (and with it the second row and its foreign-key check per message); a later one drops it.
ALTER TABLE "emails" ADD COLUMN "transcript" JSONB;
