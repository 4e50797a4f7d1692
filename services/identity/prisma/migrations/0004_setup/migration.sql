-- CreateTable
CREATE TABLE "setup_admins" (
    "user_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "setup_admins_pkey" PRIMARY KEY ("user_id")
);
