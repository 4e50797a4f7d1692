// `pnpm db:migrate`: creates the database if needed and applies pending migrations, without
// starting the service (the service does the same at start-up, under the same advisory lock).
import { createLogger, ensureDatabase, exitOnStartupError, runMigrations } from "@burnbox/service-kit";
import { MIGRATIONS_DIR, loadTenancyConfigFromEnv } from "./config";

async function migrate(): Promise<void> {
  const config = loadTenancyConfigFromEnv();
  const logger = createLogger({ service: config.service.name, level: config.log.level });
  try {
    await ensureDatabase(config.database.url);
    const applied = await runMigrations(config.database.url, MIGRATIONS_DIR, logger);
    logger.info({ applied }, applied.length > 0 ? "migrations applied" : "database already up to date");
  } catch (err) {
    exitOnStartupError(logger, err);
  }
}

migrate().catch((err: unknown) => exitOnStartupError(undefined, err));
