import { createLogger, ensureDatabase, runMigrations } from "@burnbox/service-kit";
import { MIGRATIONS_DIR, loadTenancyMigrationConfig } from "./config";

/** `pnpm db:migrate`: creates the database if needed and applies pending migrations, without starting the service. */
async function migrate(): Promise<void> {
  const config = loadTenancyMigrationConfig();
  const logger = createLogger({ service: config.service.name, level: config.log.level });
  await ensureDatabase(config.database.url);
  const applied = await runMigrations(config.database.url, MIGRATIONS_DIR, logger);
  logger.info({ applied }, applied.length > 0 ? "migrations applied" : "database already up to date");
}

void migrate().catch((err: unknown) => {
  process.stderr.write(`db:migrate failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
