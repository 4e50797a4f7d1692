-- Free words in bodies (README, "Searching mail"), priced as what they cost (docs/performance.md,
-- "Common words in a big inbox").
--
-- PostgreSQL prices to_tsvector at 100 × cpu_operator_cost, 0.25 per call, a quarter of a table
-- page read; computing the words of one seeded body (200 to 4,000 characters) takes about 0.2 ms on
-- this machine, about 100 times what that price says (docs/performance.md, "Searching a big inbox").
-- So for an inbox of a few dozen emails the planner chose to walk the inbox and compute every body's
-- words as a filter (83 bodies: 16 to 19 ms at a million emails) over asking the GIN index for the
-- inbox's word. The same words now come from `email_body_words`, whose COST (100 times the built-in
-- 100) says so, and the index holds that call: same name, same words, so every search finds what it
-- found. PL/pgSQL so that PostgreSQL cannot inline it (an inlined SQL function would be priced as
-- to_tsvector again). The search statement (email.repository.ts, BODY_WORDS) spells the same call.
--
-- On an existing database the new index is built before the old one is dropped: the build holds a
-- write lock on emails (the intake's inserts wait, then 451 and senders retry) but lets reads run,
-- 145 s at a million emails on this machine; the drop and the rename at the end take an exclusive
-- lock for an instant. No table rewrite: nothing is stored in the rows. Then ANALYZE (4 s at a
-- million), since the statistics of the old index's expression went with it and the planner would
-- guess how many bodies hold a word until autovacuum next analyzed emails.
CREATE FUNCTION "email_body_words"("body" text) RETURNS tsvector
  LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE COST 10000
AS $$
BEGIN
  RETURN to_tsvector('pg_catalog.simple'::regconfig, left("body", 100000));
END $$;

CREATE INDEX "emails_body_words_priced_idx" ON "emails" USING GIN ("inbox_id", "email_body_words"("body_text"));
DROP INDEX "emails_body_words_idx";
ALTER INDEX "emails_body_words_priced_idx" RENAME TO "emails_body_words_idx";
ANALYZE "emails";
