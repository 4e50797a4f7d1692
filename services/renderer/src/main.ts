import { startTelemetry } from "@burnbox/service-kit/telemetry";

// Tracing (when OTEL_* ask for it) starts before the service is loaded; hence the dynamic imports.
void startTelemetry({ service: "renderer", env: process.env }).then(async (telemetry) => {
  const { runService } = await import("@burnbox/service-kit/runtime");
  const { startService } = await import("./app");
  const { loadRendererConfig } = await import("./config");
  await runService({
    telemetry,
    env: process.env,
    loadConfig: () => loadRendererConfig(process.env),
    infra: (config) => ({ config }),
    start: (config, infra) => startService(config, infra, { env: process.env }),
  });
});
