-- CreateTable
CREATE TABLE "domain_verifications" (
    "id" UUID NOT NULL,
    "domain_id" UUID NOT NULL,
    "checked_at" TIMESTAMPTZ(3) NOT NULL,
    "trigger" TEXT NOT NULL,
    "mx_result" BOOLEAN,
    "txt_result" BOOLEAN,
    "spf_result" BOOLEAN,
    "error" TEXT,

    CONSTRAINT "domain_verifications_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "domain_verifications_domain_id_checked_at_idx" ON "domain_verifications"("domain_id", "checked_at");

-- AddForeignKey
ALTER TABLE "domain_verifications" ADD CONSTRAINT "domain_verifications_domain_id_fkey" FOREIGN KEY ("domain_id") REFERENCES "domains"("id") ON DELETE CASCADE ON UPDATE CASCADE;
