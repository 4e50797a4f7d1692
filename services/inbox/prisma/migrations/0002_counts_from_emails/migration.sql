-- Inbox counters are counted from the emails at read time: updating them on the inbox row made
-- every delivery to one inbox wait on that row's lock.
ALTER TABLE "inboxes" DROP COLUMN "email_count",
DROP COLUMN "unread_count";
