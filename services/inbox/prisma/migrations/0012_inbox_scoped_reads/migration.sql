-- Reads that stay flat as an inbox fills (docs/performance.md, "A million emails, read by index").
--
-- 1. Searches are always within one inbox. The GIN indexes of 0009 and 0010 held every inbox's
--    matches, so an inbox's search intersected an org-wide bitmap with the inbox's (100,000 entries
--    for a busy inbox of a million emails). With btree_gin, each index holds the inbox id beside the
--    words or trigrams and the intersection happens inside the index: the bitmap holds only that
--    inbox's matches. btree_gin ships with PostgreSQL's contrib and is a trusted extension.
-- 2. The body's words stay an index expression (0010's: `simple`, the first 100,000 characters),
--    now beside the inbox id. A stored generated column was measured (docs/performance.md, "A
--    million emails, read by index"): it spares a filtering plan the recomputation of the words per
--    row, but it made the table 1.8 times larger (1,692 to 3,070 MB at a million emails) and its
--    rewrite held a write lock on emails for minutes on upgrade; left out.
-- 3. The email and unread counts of each inbox are kept by statement triggers, exact in every
--    transaction that inserts, deletes or changes the read flag of emails. Not one row per inbox (the
--    counters 0002 removed: every delivery to one inbox waited on that row's lock) but up to 16, one
--    per slot, the slot being the writing connection's (backend pid modulo 16): concurrent writers
--    to one inbox update different rows; a read adds up an inbox's rows. A slot row may go negative
--    (mail inserted through one connection, deleted through another); only the sum means anything.
--    No foreign key (its check would lock the inbox row from inside a cascade's delete): the rows of
--    deleted inboxes are removed by a trigger on inboxes.
--
-- On an existing database this rebuilds four indexes and counts the stored mail while holding a
-- write lock on emails (the migration runner applies a migration in one transaction): at a million
-- emails, expect the intake to answer 451 (senders retry) for as long as the index builds take.
CREATE EXTENSION IF NOT EXISTS btree_gin;

-- the org-wide indexes of 0009 and 0010, replaced by the inbox-scoped ones of the same names
DROP INDEX IF EXISTS "emails_body_words_idx";
DROP INDEX IF EXISTS "emails_subject_trgm_idx";
DROP INDEX IF EXISTS "emails_from_address_trgm_idx";
DROP INDEX IF EXISTS "emails_to_address_trgm_idx";

CREATE INDEX "emails_body_words_idx" ON "emails" USING GIN ("inbox_id", (to_tsvector('simple'::regconfig, left("body_text", 100000))));
CREATE INDEX "emails_subject_trgm_idx" ON "emails" USING GIN ("inbox_id", "subject" gin_trgm_ops);
CREATE INDEX "emails_from_address_trgm_idx" ON "emails" USING GIN ("inbox_id", "from_address" gin_trgm_ops);
CREATE INDEX "emails_to_address_trgm_idx" ON "emails" USING GIN ("inbox_id", "to_address" gin_trgm_ops);

CREATE TABLE "inbox_email_counts" (
  "inbox_id" uuid NOT NULL,
  "slot" smallint NOT NULL,
  "emails" bigint NOT NULL,
  "unread" bigint NOT NULL,
  PRIMARY KEY ("inbox_id", "slot")
);

-- Adds per inbox what a statement changed, to this connection's slot; in inbox order, so two
-- statements of one slot lock their rows in the same order.
CREATE FUNCTION "inbox_email_counts_add"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO inbox_email_counts AS c (inbox_id, slot, emails, unread)
    SELECT inbox_id, pg_backend_pid() % 16, count(*), count(*) FILTER (WHERE NOT is_read)
    FROM new_rows GROUP BY inbox_id ORDER BY inbox_id
    ON CONFLICT (inbox_id, slot) DO UPDATE SET emails = c.emails + EXCLUDED.emails, unread = c.unread + EXCLUDED.unread;
  ELSIF TG_OP = 'DELETE' THEN
    -- an inbox being deleted (the cascade) keeps no counts: skipped here, its rows removed below
    INSERT INTO inbox_email_counts AS c (inbox_id, slot, emails, unread)
    SELECT o.inbox_id, pg_backend_pid() % 16, -count(*), -count(*) FILTER (WHERE NOT o.is_read)
    FROM old_rows o WHERE EXISTS (SELECT 1 FROM inboxes i WHERE i.id = o.inbox_id)
    GROUP BY o.inbox_id ORDER BY o.inbox_id
    ON CONFLICT (inbox_id, slot) DO UPDATE SET emails = c.emails + EXCLUDED.emails, unread = c.unread + EXCLUDED.unread;
  ELSE
    INSERT INTO inbox_email_counts AS c (inbox_id, slot, emails, unread)
    SELECT d.inbox_id, pg_backend_pid() % 16, sum(d.n), sum(d.u)
    FROM (
      SELECT inbox_id, 1 AS n, CASE WHEN is_read THEN 0 ELSE 1 END AS u FROM new_rows
      UNION ALL
      SELECT inbox_id, -1, CASE WHEN is_read THEN 0 ELSE -1 END FROM old_rows
    ) d
    GROUP BY d.inbox_id HAVING sum(d.n) <> 0 OR sum(d.u) <> 0 ORDER BY d.inbox_id
    ON CONFLICT (inbox_id, slot) DO UPDATE SET emails = c.emails + EXCLUDED.emails, unread = c.unread + EXCLUDED.unread;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "emails_counted_insert" AFTER INSERT ON "emails"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "inbox_email_counts_add"();
CREATE TRIGGER "emails_counted_delete" AFTER DELETE ON "emails"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "inbox_email_counts_add"();
CREATE TRIGGER "emails_counted_update" AFTER UPDATE ON "emails"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "inbox_email_counts_add"();

CREATE FUNCTION "inbox_email_counts_forget"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM inbox_email_counts c USING old_rows o WHERE c.inbox_id = o.id;
  RETURN NULL;
END $$;

CREATE TRIGGER "inboxes_counts_forgotten" AFTER DELETE ON "inboxes"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "inbox_email_counts_forget"();

-- the mail already stored (writers wait: the triggers above took their lock on emails)
INSERT INTO "inbox_email_counts" ("inbox_id", "slot", "emails", "unread")
SELECT "inbox_id", 0, count(*), count(*) FILTER (WHERE NOT "is_read") FROM "emails" GROUP BY "inbox_id";
