-- The search syntax of `q` on email lists (README, "Searching mail") matches by case-insensitive
-- substring (ILIKE '%term%'); trigram GIN indexes serve it instead of reading every row of a large
-- inbox (docs/performance.md, "A million emails"). pg_trgm ships with PostgreSQL's contrib and is a
-- trusted extension: the database's owner may create it without superuser rights.
-- On an existing database the index builds take a write lock on emails while they run (the
-- migration runner applies each migration in one transaction): about a minute per million rows.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE INDEX IF NOT EXISTS "emails_subject_trgm_idx" ON "emails" USING GIN ("subject" gin_trgm_ops);
CREATE INDEX IF NOT EXISTS "emails_body_text_trgm_idx" ON "emails" USING GIN ("body_text" gin_trgm_ops);
CREATE INDEX IF NOT EXISTS "emails_from_address_trgm_idx" ON "emails" USING GIN ("from_address" gin_trgm_ops);
CREATE INDEX IF NOT EXISTS "emails_to_address_trgm_idx" ON "emails" USING GIN ("to_address" gin_trgm_ops);
