import path from "node:path";
import { runService } from "@burnbox/service-kit";
import { startService } from "./app";
import { loadDispatcherConfig } from "./config";

void runService({
  loadConfig: () => loadDispatcherConfig(process.env),
  infra: (config) => ({
    config,
    database: { url: config.database.url, migrationsDir: path.join(__dirname, "..", "prisma", "migrations") },
  }),
  start: (config, infra) => startService(config, infra),
});
