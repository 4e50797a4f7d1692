import { startTelemetry } from "@burnbox/service-kit/telemetry";

// Tracing (when OTEL_* ask for it) starts before the service is loaded, so that its require hooks
// see express, pg and http load; hence the dynamic imports.
void startTelemetry({ service: "tenancy", env: process.env }).then(async (telemetry) => {
  const { runService } = await import("@burnbox/service-kit/runtime");
  const { startService } = await import("./app");
  const { MIGRATIONS_DIR, loadTenancyConfigFromEnv } = await import("./config");
  await runService({
    telemetry,
    env: process.env,
    database: { name: "burnbox_tenancy", migrationsDir: MIGRATIONS_DIR },
    loadConfig: loadTenancyConfigFromEnv,
    infra: (config) => ({ config }),
    start: startService,
  });
});
