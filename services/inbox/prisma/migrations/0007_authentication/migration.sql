-- The SPF, DKIM, DMARC and ARC verdicts worked out at intake (extensions section 3); mail stored before has none (null).
ALTER TABLE "emails" ADD COLUMN "authentication" JSONB;
