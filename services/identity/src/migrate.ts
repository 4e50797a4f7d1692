import path from "node:path";
import { createLogger, ensureDatabase, runMigrations } from "@burnbox/service-kit";
import { loadIdentityMigrationConfig } from "./config";

/** `pnpm db:migrate`: creates the database if needed and applies pending migrations, without starting the service. */
async function migrate(): Promise<void> {
  const config = loadIdentityMigrationConfig(process.env);
  const logger = createLogger({ service: config.service.name, level: config.log.level });
  await ensureDatabase(config.database.url);
  const applied = await runMigrations(config.database.url, path.join(__dirname, "..", "prisma", "migrations"), logger);
  logger.info({ applied }, applied.length > 0 ? "migrations applied" : "database already up to date");
}

void migrate().catch((err: unknown) => {
  process.stderr.write(`db:migrate failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
