import { startTelemetry } from "@burnbox/service-kit/telemetry";

// Tracing (when OTEL_* ask for it) starts before the service is loaded, so that its require hooks
// see express, pg and http load; hence the dynamic imports.
void startTelemetry({ service: "api-gateway", env: process.env }).then(async (telemetry) => {
  const { runService } = await import("@burnbox/service-kit/runtime");
  const { startService } = await import("./app");
  const { loadGatewayConfig } = await import("./config");
  await runService({
    telemetry,
    loadConfig: () => loadGatewayConfig(process.env),
    infra: (config) => ({ config, redis: true }),
    start: startService,
  });
});
