import { runService } from "@burnbox/service-kit";
import { startGateway } from "./app";
import { loadGatewayConfig } from "./config";

void runService({
  loadConfig: () => loadGatewayConfig(process.env),
  infra: (config) => ({ config, redis: true }),
  start: startGateway,
});
