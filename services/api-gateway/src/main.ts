import { ConfigError, exitOnStartupError, handleShutdown, startInfra } from "@burnbox/service-kit";
import { startGateway } from "./app";
import { loadGatewayConfig } from "./config";

async function main(): Promise<void> {
  let config;
  try {
    config = loadGatewayConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) exitOnStartupError(undefined, err);
    throw err;
  }
  const infra = await startInfra({ config, redis: true });
  try {
    const gateway = await startGateway(config, infra);
    handleShutdown(infra.logger, async () => {
      await gateway.stop();
      await infra.close();
    });
  } catch (err) {
    exitOnStartupError(infra.logger, err);
  }
}

void main();
