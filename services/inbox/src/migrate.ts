import path from "node:path";
import { createLogger, ensureDatabase, runMigrations } from "@burnbox/service-kit";
import { loadInboxMigrateConfig } from "./config";

// `pnpm db:migrate`: applies pending migrations (under the same advisory lock the service takes
// at start-up) and exits, without starting the service.
async function migrate(): Promise<void> {
  const config = loadInboxMigrateConfig();
  const logger = createLogger({ service: `${config.service.name}-migrate`, level: config.log.level });
  await ensureDatabase(config.database.url);
  const applied = await runMigrations(config.database.url, path.join(__dirname, "..", "prisma", "migrations"), logger);
  logger.info({ applied }, applied.length > 0 ? "migrations applied" : "database already up to date");
}

migrate().catch((err: unknown) => {
  createLogger({ service: "inbox-migrate", level: "error" }).error({ err }, "migration failed");
  process.exitCode = 1;
});
