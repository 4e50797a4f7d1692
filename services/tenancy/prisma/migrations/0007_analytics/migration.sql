-- Analytics aggregates, kept from events (never computed by scanning mail); lifetime counters
-- that outlive the inboxes and mail they count.

-- CreateTable
CREATE TABLE "analytics_team_totals" (
    "org_id" UUID NOT NULL,
    "team_id" UUID NOT NULL,
    "emails" BIGINT NOT NULL DEFAULT 0,
    "email_bytes" BIGINT NOT NULL DEFAULT 0,
    "inboxes_created" BIGINT NOT NULL DEFAULT 0,
    "active_inboxes" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "analytics_team_totals_pkey" PRIMARY KEY ("org_id","team_id")
);

-- CreateTable
CREATE TABLE "analytics_hourly" (
    "org_id" UUID NOT NULL,
    "team_id" UUID NOT NULL,
    "day" DATE NOT NULL,
    "hour" SMALLINT NOT NULL,
    "emails" BIGINT NOT NULL DEFAULT 0,
    "email_bytes" BIGINT NOT NULL DEFAULT 0,
    "inboxes_created" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "analytics_hourly_pkey" PRIMARY KEY ("org_id","team_id","day","hour")
);

-- CreateTable
CREATE TABLE "analytics_domain_daily" (
    "org_id" UUID NOT NULL,
    "domain" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "emails" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "analytics_domain_daily_pkey" PRIMARY KEY ("org_id","domain","day")
);

-- CreateTable
CREATE TABLE "analytics_sender_domains" (
    "org_id" UUID NOT NULL,
    "sender_domain" TEXT NOT NULL,
    "emails" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "analytics_sender_domains_pkey" PRIMARY KEY ("org_id","sender_domain")
);

-- CreateIndex
CREATE INDEX "analytics_hourly_org_id_day_idx" ON "analytics_hourly"("org_id", "day");

