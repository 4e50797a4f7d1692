import path from "node:path";
import { runService } from "@burnbox/service-kit";
import { startService } from "./app";
import { loadIdentityConfig } from "./config";

void runService({
  loadConfig: () => loadIdentityConfig(process.env),
  infra: (config) => ({
    config,
    redis: true,
    database: { url: config.database.url, migrationsDir: path.join(__dirname, "..", "prisma", "migrations") },
  }),
  start: (config, infra) => startService(config, infra),
});
