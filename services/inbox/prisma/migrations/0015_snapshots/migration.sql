-- Mail snapshots (extensions section 12): a team's named baselines and the comparisons against them.

-- The baseline keeps what it compares (masked subject, From, text, HTML, links), not a reference to
-- the email: deleting the email or its inbox later leaves the baseline whole (no foreign key).
CREATE TABLE "snapshots" (
    "id" UUID NOT NULL,
    "org_id" UUID NOT NULL,
    "team_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "email_id" UUID NOT NULL,
    "masks" JSONB NOT NULL,
    "subject" TEXT NOT NULL,
    "from_address" TEXT NOT NULL,
    "body_text" TEXT NOT NULL,
    "body_html" TEXT,
    "links" JSONB NOT NULL,
    "images_key" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "snapshots_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "snapshots_team_id_name_key" ON "snapshots"("team_id", "name");
CREATE INDEX "snapshots_org_id_team_id_name_idx" ON "snapshots"("org_id", "team_id", "name");

-- The comparisons of a snapshot, newest first; they go with it.
CREATE TABLE "snapshot_comparisons" (
    "id" UUID NOT NULL,
    "snapshot_id" UUID NOT NULL,
    "email_id" UUID NOT NULL,
    "result" JSONB NOT NULL,
    "images_key" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "snapshot_comparisons_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "snapshot_comparisons_snapshot_id_created_at_idx" ON "snapshot_comparisons"("snapshot_id", "created_at" DESC);

ALTER TABLE "snapshot_comparisons" ADD CONSTRAINT "snapshot_comparisons_snapshot_id_fkey" FOREIGN KEY ("snapshot_id") REFERENCES "snapshots"("id") ON DELETE CASCADE ON UPDATE CASCADE;
