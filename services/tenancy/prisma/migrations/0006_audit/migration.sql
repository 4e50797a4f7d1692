-- The audit log: one row per audit.recorded event of any service. The primary key is the event's
-- id, so a redelivered or replayed event inserts nothing (INSERT ... ON CONFLICT DO NOTHING).
-- CreateTable
CREATE TABLE "audit_entries" (
    "id" UUID NOT NULL,
    "org_id" UUID,
    "team_id" UUID,
    "actor_id" UUID,
    "actor_email" TEXT,
    "actor_type" TEXT NOT NULL,
    "actor_api_key_id" UUID,
    "action" TEXT NOT NULL,
    "category" TEXT NOT NULL,
    "severity" TEXT NOT NULL,
    "resource_type" TEXT NOT NULL,
    "resource_id" TEXT,
    "resource_name" TEXT,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "ip_address" TEXT,
    "user_agent" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "audit_entries_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "audit_entries_org_id_created_at_id_idx" ON "audit_entries"("org_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "audit_entries_created_at_id_idx" ON "audit_entries"("created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "audit_entries_org_id_action_created_at_id_idx" ON "audit_entries"("org_id", "action", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "audit_entries_org_id_category_created_at_id_idx" ON "audit_entries"("org_id", "category", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "audit_entries_org_id_severity_created_at_id_idx" ON "audit_entries"("org_id", "severity", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "audit_entries_org_id_actor_id_created_at_id_idx" ON "audit_entries"("org_id", "actor_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "audit_entries_org_id_actor_email_created_at_id_idx" ON "audit_entries"("org_id", "actor_email", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "audit_entries_org_id_resource_type_created_at_id_idx" ON "audit_entries"("org_id", "resource_type", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "audit_entries_resource_id_created_at_id_idx" ON "audit_entries"("resource_id", "created_at" DESC, "id" DESC);
