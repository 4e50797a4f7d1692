-- The SMTP transcript in the email's own row (issue 39): the intake writes it in the one statement
-- that inserts the email, with no second row and no foreign-key check of that row against the
-- email (a `SELECT ... FOR KEY SHARE` per message, planned once per connection). Nullable, no
-- default: a catalog change only. `email_transcripts` stays, no longer written: the transcript's
-- readers fall back to it for the mail stored before. The previous release reads only that table,
-- so while it still serves (a rolling update, a rollback) it has no transcript (404) for the mail
-- the new intake stored.
ALTER TABLE "emails" ADD COLUMN "transcript" JSONB;
