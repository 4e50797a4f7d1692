-- AlterTable
ALTER TABLE "domain_assignments" ADD COLUMN "active_inboxes" INTEGER NOT NULL DEFAULT 0;
