-- Orgs and teams tenancy removed (org.deleted, team.deleted): no API key is created for them afterwards.
CREATE TABLE "removed_tenants" (
    "id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "removed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "removed_tenants_pkey" PRIMARY KEY ("id")
);

-- An org's API keys, removed or re-filed in batches.
CREATE INDEX "api_keys_org_id_idx" ON "api_keys"("org_id");
