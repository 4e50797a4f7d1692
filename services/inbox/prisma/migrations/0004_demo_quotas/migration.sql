-- Demo inboxes created per client IP and clock hour (POST /try/inbox, demo.per_ip_per_hour).
CREATE TABLE "demo_quotas" (
    "ip" TEXT NOT NULL,
    "window_start" TIMESTAMPTZ(3) NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "demo_quotas_pkey" PRIMARY KEY ("ip", "window_start")
);

CREATE INDEX "demo_quotas_window_start_idx" ON "demo_quotas"("window_start");
