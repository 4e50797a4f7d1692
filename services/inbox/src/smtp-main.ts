import path from "node:path";
import { runService } from "@burnbox/service-kit";
import { startIntake } from "./app";
import { loadInboxConfig } from "./config";

// The SMTP intake runs as its own process; its health endpoints default to port 8106.
void runService({
  loadConfig: () =>
    loadInboxConfig(
      process.env,
      process.env.BB_HTTP_PORT ? { service: { name: "inbox-smtp" } } : { http: { port: 8106 }, service: { name: "inbox-smtp" } },
    ),
  infra: (config) => ({
    config,
    database: { url: config.database.url, migrationsDir: path.join(__dirname, "..", "prisma", "migrations") },
  }),
  start: (config, infra) => startIntake(config, infra),
});
