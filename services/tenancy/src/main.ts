import path from "node:path";
import { runService } from "@burnbox/service-kit";
import { startService } from "./app";
import { loadTenancyConfig } from "./config";

void runService({
  loadConfig: () => loadTenancyConfig(process.env),
  infra: (config) => ({
    config,
    database: { url: config.database.url, migrationsDir: path.join(__dirname, "..", "prisma", "migrations") },
  }),
  start: startService,
});
