import path from "node:path";
import { startTelemetry } from "@burnbox/service-kit/telemetry";

// The IMAP and POP3 entrypoint (extensions section 11) runs as its own process, deployed and
// scaled on its own; its health endpoints default to port 8108. Tracing starts before the rest is
// loaded, hence the dynamic imports.
void startTelemetry({ service: "inbox-mailbox", env: process.env }).then(async (telemetry) => {
  const { runService } = await import("@burnbox/service-kit/runtime");
  const { startMailbox } = await import("./mailbox/mailbox-app");
  const { loadInboxConfig } = await import("./config");
  await runService({
    telemetry,
    env: process.env,
    database: { name: "burnbox_inbox", migrationsDir: path.join(__dirname, "..", "prisma", "migrations") },
    loadConfig: () =>
      loadInboxConfig(
        process.env,
        process.env.BB_HTTP_PORT ? { service: { name: "inbox-mailbox" } } : { http: { port: 8108 }, service: { name: "inbox-mailbox" } },
      ),
    // Redis: the failed logins per client IP, shared by every replica
    infra: (config) => ({ config, redis: true }),
    start: (config, infra) => startMailbox(config, infra),
  });
});
