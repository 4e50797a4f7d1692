import path from "node:path";
import { startTelemetry } from "@burnbox/service-kit/telemetry";

// Tracing (when OTEL_* ask for it) starts before the service is loaded, so that its require hooks
// see express, pg and http load; hence the dynamic imports.
void startTelemetry({ service: "webhook-dispatcher", env: process.env }).then(async (telemetry) => {
  const { runService } = await import("@burnbox/service-kit/runtime");
  const { startService } = await import("./app");
  const { loadDispatcherConfig } = await import("./config");
  await runService({
    telemetry,
    env: process.env,
    database: { name: "burnbox_webhook_dispatcher", migrationsDir: path.join(__dirname, "..", "prisma", "migrations") },
    loadConfig: () => loadDispatcherConfig(process.env),
    infra: (config) => ({
      config,
    }),
    start: (config, infra) => startService(config, infra),
  });
});
