-- The TTL an inbox was created with (an extension without a duration renews it).
ALTER TABLE "inboxes" ADD COLUMN "ttl_ms" BIGINT;
UPDATE "inboxes" SET "ttl_ms" = GREATEST(1, (EXTRACT(EPOCH FROM ("expires_at" - "created_at")) * 1000)::BIGINT);
ALTER TABLE "inboxes" ALTER COLUMN "ttl_ms" SET NOT NULL;

-- GET /files?key= finds a file's email by its storage key.
CREATE INDEX "emails_raw_key_idx" ON "emails"("raw_key");
CREATE INDEX "attachments_storage_key_idx" ON "attachments"("storage_key");
