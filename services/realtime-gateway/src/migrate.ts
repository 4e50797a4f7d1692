// `pnpm db:migrate`: creates the database if needed and applies pending migrations, then exits,
// without starting the service (which does the same at start-up, under the same advisory lock).
import path from "node:path";
import { createLogger, ensureDatabase, exitOnStartupError, runMigrations } from "@burnbox/service-kit";
import { loadRealtimeMigrateConfigFromEnv } from "./config";

async function migrate(): Promise<void> {
  const config = loadRealtimeMigrateConfigFromEnv();
  const logger = createLogger({ service: `${config.service.name}-migrate`, level: config.log.level });
  try {
    await ensureDatabase(config.database.url);
    const applied = await runMigrations(config.database.url, path.join(__dirname, "..", "prisma", "migrations"), logger);
    logger.info({ applied }, applied.length > 0 ? "migrations applied" : "database already up to date");
  } catch (err) {
    exitOnStartupError(logger, err);
  }
}

migrate().catch((err: unknown) => exitOnStartupError(undefined, err));
