import path from "node:path";
import { startTelemetry } from "@burnbox/service-kit/telemetry";

// Tracing (when OTEL_* ask for it) starts before the service is loaded, so that its require hooks
// see express, pg and http load; hence the dynamic imports.
void startTelemetry({ service: "realtime-gateway", env: process.env }).then(async (telemetry) => {
  const { runService } = await import("@burnbox/service-kit/runtime");
  const { startService } = await import("./app");
  const { loadRealtimeConfig } = await import("./config");
  await runService({
    telemetry,
    env: process.env,
    database: { name: "burnbox_realtime_gateway", migrationsDir: path.join(__dirname, "..", "prisma", "migrations") },
    loadConfig: () => loadRealtimeConfig(process.env),
    infra: (config) => ({
      config,
      redis: true,
    }),
    start: startService,
  });
});
