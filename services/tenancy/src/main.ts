import { runService } from "@burnbox/service-kit";
import { startService } from "./app";
import { MIGRATIONS_DIR, loadTenancyConfigFromEnv } from "./config";

void runService({
  loadConfig: loadTenancyConfigFromEnv,
  infra: (config) => ({ config, database: { url: config.database.url, migrationsDir: MIGRATIONS_DIR } }),
  start: startService,
});
