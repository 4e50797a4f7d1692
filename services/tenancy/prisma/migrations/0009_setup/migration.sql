-- CreateTable
CREATE TABLE "setup_state" (
    "id" SMALLINT NOT NULL DEFAULT 1,
    "token_hash" TEXT,
    "completed_at" TIMESTAMPTZ(3),
    "admin_user_id" UUID,
    "org_id" UUID,

    CONSTRAINT "setup_state_pkey" PRIMARY KEY ("id")
);
