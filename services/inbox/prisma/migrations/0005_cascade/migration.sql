-- Orgs and teams tenancy removed (org.deleted, team.deleted): no inbox is created for them afterwards.
CREATE TABLE "removed_tenants" (
    "id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "removed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "removed_tenants_pkey" PRIMARY KEY ("id")
);

-- An org's inboxes, removed or re-filed in batches.
CREATE INDEX "inboxes_org_id_idx" ON "inboxes"("org_id");

-- The active inboxes of a domain, counted under its lock at create (max_inboxes_per_domain).
CREATE INDEX "inboxes_domain_id_expires_at_idx" ON "inboxes"("domain_id", "expires_at");
