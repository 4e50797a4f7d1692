-- The search syntax of `q` on email lists (README, "Searching mail") matches by case-insensitive
-- substring (ILIKE '%term%'). Every search is within one inbox, so the (inbox_id, received_at) index
-- bounds the rows it reads; trigram GIN indexes on the short columns serve `subject:`, `from:` and
-- `to:` in a large inbox. The text body has none: measured on this machine, a trigram index on it
-- made each email's insert (the intake's write) about 4.5 times as costly and took 9 s per 10,000
-- rows to build (docs/performance.md, "A million emails").
-- pg_trgm ships with PostgreSQL's contrib and is a trusted extension: the database's owner may
-- create it without superuser rights. On an existing database the index builds hold a write lock
-- on emails while they run (the migration runner applies a migration in one transaction).
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE INDEX IF NOT EXISTS "emails_subject_trgm_idx" ON "emails" USING GIN ("subject" gin_trgm_ops);
CREATE INDEX IF NOT EXISTS "emails_from_address_trgm_idx" ON "emails" USING GIN ("from_address" gin_trgm_ops);
CREATE INDEX IF NOT EXISTS "emails_to_address_trgm_idx" ON "emails" USING GIN ("to_address" gin_trgm_ops);
