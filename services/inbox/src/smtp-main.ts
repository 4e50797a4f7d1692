import path from "node:path";
import { startTelemetry } from "@burnbox/service-kit/telemetry";

// Tracing (when OTEL_* ask for it) starts before the intake is loaded, so that its require hooks
// see pg and http load; hence the dynamic imports.
void startTelemetry({ service: "inbox-smtp", env: process.env }).then(async (telemetry) => {
  const { runService } = await import("@burnbox/service-kit/runtime");
  const { startIntake } = await import("./app");
  const { loadInboxConfig } = await import("./config");
  const { parseDurationMs } = await import("@burnbox/contracts");
  // The SMTP intake runs as its own process; its health endpoints default to port 8106.
  await runService({
    telemetry,
    env: process.env,
    database: { name: "burnbox_inbox", migrationsDir: path.join(__dirname, "..", "prisma", "migrations") },
    loadConfig: () =>
      loadInboxConfig(
        process.env,
        process.env.BB_HTTP_PORT ? { service: { name: "inbox-smtp" } } : { http: { port: 8106 }, service: { name: "inbox-smtp" } },
      ),
    // Redis: the attempt counts of SMTP behaviours (defer_first), shared by every intake replica
    // the store path's bound (smtp.store_timeout): PostgreSQL cancels and rolls back a statement past it
    infra: (config) => ({ config, redis: true, poolLimits: { statementTimeoutMs: parseDurationMs(config.smtp.store_timeout) } }),
    start: (config, infra) => startIntake(config, infra),
  });
});
