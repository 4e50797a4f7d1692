import path from "node:path";
import { startTelemetry } from "@burnbox/service-kit/telemetry";

// Tracing (when OTEL_* ask for it) starts before the service is loaded, so that its require hooks
// see express, pg and http load; hence the dynamic imports.
void startTelemetry({ service: "identity", env: process.env }).then(async (telemetry) => {
  const { runService } = await import("@burnbox/service-kit/runtime");
  const { startService } = await import("./app");
  const { loadIdentityConfig } = await import("./config");
  await runService({
    telemetry,
    env: process.env,
    database: { name: "burnbox_identity", migrationsDir: path.join(__dirname, "..", "prisma", "migrations") },
    loadConfig: () => loadIdentityConfig(process.env),
    infra: (config) => ({
      config,
      redis: true,
    }),
    start: (config, infra) => startService(config, infra),
  });
});
