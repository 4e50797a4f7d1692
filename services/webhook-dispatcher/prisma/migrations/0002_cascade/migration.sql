-- Orgs and teams tenancy removed (org.deleted, team.deleted): no webhook is created for them afterwards.
CREATE TABLE "removed_tenants" (
    "id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "removed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "removed_tenants_pkey" PRIMARY KEY ("id")
);

-- An org's webhooks, removed or re-filed in batches.
CREATE INDEX "webhooks_org_id_idx" ON "webhooks"("org_id");
