-- The codes and links found in a mail at intake (extensions section 2); mail stored before has none.
ALTER TABLE "emails" ADD COLUMN "extracted" JSONB NOT NULL DEFAULT '{"codes":[],"links":[]}';
