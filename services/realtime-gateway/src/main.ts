import { runService } from "@burnbox/service-kit";
import { startService } from "./app";
import { loadRealtimeConfig } from "./config";

void runService({
  loadConfig: () => loadRealtimeConfig(process.env),
  infra: (config) => ({ config, redis: true }),
  start: startService,
});
