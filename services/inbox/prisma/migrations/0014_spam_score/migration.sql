-- The spam score asked of rspamd at intake (extensions section 9): rspamd's verdict as the API
-- shows it (`spam`, null for mail received before, read as `disabled`), and its score alone
-- (`spam_score`, null when not scored) for the summaries, the wait's `spam_max` and the search's
-- `spam:>N`. Two nullable columns without a default: no table rewrite, an instant's lock; the
-- previous release's inserts leave them null. No index: a spam search is one inbox's, whose rows
-- the inbox's index finds.
ALTER TABLE "emails" ADD COLUMN "spam" JSONB;
ALTER TABLE "emails" ADD COLUMN "spam_score" DOUBLE PRECISION;
