-- Extensions 10: a DKIM key per domain. Expand only: nullable columns (and a constant default), so
-- the previous release, which neither reads nor writes them, keeps working; domains it creates
-- meanwhile, and those older than this release, get their key from the dkim-keys worker.
ALTER TABLE "domains" ADD COLUMN "dkim_verified" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "domains" ADD COLUMN "dkim_selector" TEXT;
ALTER TABLE "domains" ADD COLUMN "dkim_public_key" TEXT;
ALTER TABLE "domains" ADD COLUMN "dkim_private_key_sealed" TEXT;

ALTER TABLE "domain_verifications" ADD COLUMN "dkim_result" BOOLEAN;
