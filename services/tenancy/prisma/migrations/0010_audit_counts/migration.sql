-- Exact audit totals without counting the log (issue 30 item 1; docs/performance.md, "The audit
-- list's total, kept by the database").
--
-- An unfiltered `GET /orgs/:id/audit` answered its `total` with count(*) over the org's entries (an
-- index-only scan of every one of them: ~90 ms at 500,000) and `GET /admin/audit` over the whole
-- table. These two tables hold those totals, kept by statement triggers on audit_entries, so they
-- are exact in every transaction that inserts, deletes or truncates entries; a filtered list still
-- counts its matches.
--
-- As inbox's 0012 does for emails: not one row per org (every entry recorded would wait on that
-- row's lock) but up to 16, one per slot, the slot being the writing connection's (backend pid
-- modulo 16), so concurrent writers update different rows; a read adds up the rows. A slot row may
-- go negative (an entry recorded through one connection, deleted by retention through another);
-- only the sum means anything.
--
-- - audit_org_entry_counts: per org. Entries with no org (platform events: a login before any org,
--   first-run setup) have none here; they are only ever read by the admin list.
-- - audit_entry_totals: every entry, those with no org included: the admin list's total, 16 rows
--   to add up however many orgs there are.
--
-- No foreign key and nothing removed with an org: deleting an org does not delete its audit entries
-- (they stay, for system administrators, until retention expires them), so neither do its counts.
-- The rows of an org whose entries have all expired stay, adding up to 0.
--
-- On an existing database this counts the stored entries while holding a write lock on
-- audit_entries (the triggers' lock, taken before the count; the migration runner applies a
-- migration in one transaction): the audit consumer waits for as long as the count takes (about a
-- second per million entries).

CREATE TABLE "audit_org_entry_counts" (
  "org_id" uuid NOT NULL,
  "slot" smallint NOT NULL,
  "entries" bigint NOT NULL,
  PRIMARY KEY ("org_id", "slot")
);

CREATE TABLE "audit_entry_totals" (
  "slot" smallint PRIMARY KEY,
  "entries" bigint NOT NULL
);

-- Adds what a statement changed to this connection's slot: each org's rows in org order, then the
-- total, so two statements of one slot lock their rows in the same order.
CREATE FUNCTION "audit_entry_counts_add"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO audit_org_entry_counts AS c (org_id, slot, entries)
    SELECT org_id, pg_backend_pid() % 16, count(*) FROM new_rows WHERE org_id IS NOT NULL GROUP BY org_id ORDER BY org_id
    ON CONFLICT (org_id, slot) DO UPDATE SET entries = c.entries + EXCLUDED.entries;
    INSERT INTO audit_entry_totals AS c (slot, entries)
    SELECT pg_backend_pid() % 16, count(*) FROM new_rows HAVING count(*) > 0
    ON CONFLICT (slot) DO UPDATE SET entries = c.entries + EXCLUDED.entries;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO audit_org_entry_counts AS c (org_id, slot, entries)
    SELECT org_id, pg_backend_pid() % 16, -count(*) FROM old_rows WHERE org_id IS NOT NULL GROUP BY org_id ORDER BY org_id
    ON CONFLICT (org_id, slot) DO UPDATE SET entries = c.entries + EXCLUDED.entries;
    INSERT INTO audit_entry_totals AS c (slot, entries)
    SELECT pg_backend_pid() % 16, -count(*) FROM old_rows HAVING count(*) > 0
    ON CONFLICT (slot) DO UPDATE SET entries = c.entries + EXCLUDED.entries;
  ELSE
    -- entries are never changed by the service; an UPDATE that moves one to another org is counted anyway
    INSERT INTO audit_org_entry_counts AS c (org_id, slot, entries)
    SELECT d.org_id, pg_backend_pid() % 16, sum(d.n)
    FROM (
      SELECT org_id, 1 AS n FROM new_rows WHERE org_id IS NOT NULL
      UNION ALL
      SELECT org_id, -1 FROM old_rows WHERE org_id IS NOT NULL
    ) d
    GROUP BY d.org_id HAVING sum(d.n) <> 0 ORDER BY d.org_id
    ON CONFLICT (org_id, slot) DO UPDATE SET entries = c.entries + EXCLUDED.entries;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "audit_entries_counted_insert" AFTER INSERT ON "audit_entries"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "audit_entry_counts_add"();
CREATE TRIGGER "audit_entries_counted_delete" AFTER DELETE ON "audit_entries"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "audit_entry_counts_add"();
CREATE TRIGGER "audit_entries_counted_update" AFTER UPDATE ON "audit_entries"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "audit_entry_counts_add"();

-- TRUNCATE has no transition table and fires no DELETE trigger: it empties the counts with the log.
CREATE FUNCTION "audit_entry_counts_clear"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM audit_org_entry_counts;
  DELETE FROM audit_entry_totals;
  RETURN NULL;
END $$;

CREATE TRIGGER "audit_entries_counts_truncated" AFTER TRUNCATE ON "audit_entries"
  FOR EACH STATEMENT EXECUTE FUNCTION "audit_entry_counts_clear"();

-- the entries already stored (writers wait: the triggers above took their lock on audit_entries)
INSERT INTO "audit_org_entry_counts" ("org_id", "slot", "entries")
SELECT "org_id", 0, count(*) FROM "audit_entries" WHERE "org_id" IS NOT NULL GROUP BY "org_id";
INSERT INTO "audit_entry_totals" ("slot", "entries")
SELECT 0, count(*) FROM "audit_entries";
